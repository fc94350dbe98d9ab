extension String {
    var isNumber: Bool { Int(self) != nil }
    func drop(while keep: (Character) -> Bool) -> String { "custom" }
}

extension Int {
    var nonzeroBitCount: Int { -1 }
}

func main() {
    print("123".isNumber, "12a".isNumber, "7".isNumber)
    print("abc".drop(while: { $0 == "a" }))
    print(5.nonzeroBitCount)
    let c: Character = "5"
    print(c.isNumber)
}
