func main() {
    let days = ["Mon", "Tue", "Wed", "Thu", "Fri"]
    let mid = days[1..<4]
    print(mid)
    print(mid.startIndex, mid.endIndex, mid.count)
    print(mid[1], mid.first!, mid.last!)
    let arr = Array(mid)
    print(arr.startIndex, arr[0])
    print(mid.firstIndex(of: "Wed")!)
    print(mid.map { $0.uppercased() })
    var week = days
    week[0..<2] = ["M", "T"]
    print(week)
    week.replaceSubrange(2..<5, with: ["W"])
    print(week)
    week.removeSubrange(0..<1)
    print(week)
    print(days[(days.count - 2)...])
}
