struct Inventory {
    var stock: [String: Int] = ["apple": 3, "pear": 0]

    func count(of item: String) -> Int {
        if stock[item] != nil {
            return stock[item]!
        }
        return -1
    }
}

func main() {
    let inv = Inventory()
    print(inv.count(of: "apple"))
    print(inv.count(of: "pear"))
    print(inv.count(of: "kiwi"))
    let n: Int? = 5
    print(n! + 1)
    let arr = [1, 2, 3]
    print(arr.first! * arr.last!)
    let text = "7"
    print(Int(text)! * 6)
    var maybe: String? = nil
    maybe = "now set"
    print(maybe!)
    print(maybe!.count)
}
