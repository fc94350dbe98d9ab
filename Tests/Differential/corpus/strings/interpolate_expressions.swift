struct Item {
    let name: String
    let price: Double
    let quantity: Int
    var total: Double { price * Double(quantity) }
}

func main() {
    let item = Item(name: "Pen", price: 1.25, quantity: 4)
    print("\(item.name) x\(item.quantity) = \(item.total)")
    print("double: \(item.quantity * 2), half: \(Double(item.quantity) / 8)")
    print("nested \("inner \(1 + 1)")")
    print("bool \(item.quantity > 3) \(item.name.isEmpty)")
    print("call \(max(3, 7)) \([1, 2, 3].map { $0 * 10 })")
    print("\(item.name.uppercased())\(item.name.count)")
    let n = 1
    print("There \(n == 1 ? "is" : "are") \(n) item\(n == 1 ? "" : "s")")
    print("\(-5) \(Int.min) \(0.1)")
    print("char \(Character("z")) float \(Float(0.1))")
}
