struct Product {
    let name: String
    let price: Double
    let inStock: Bool
}

func main() {
    let products = [
        Product(name: "Lamp", price: 25.0, inStock: true),
        Product(name: "Desk", price: 150.0, inStock: false),
        Product(name: "Pen", price: 1.5, inStock: true),
    ]
    let names = products.map { $0.name }
    print(names)
    let available = products.filter { $0.inStock }
    print(available.map(\.name))
    let cheap = products.filter { $0.price < 30 }.map { "\($0.name): \($0.price)" }
    print(cheap)
    let doubled = [1, 2, 3].map { $0 * 2 }
    print(doubled)
    print([1, 2, 3, 4, 5, 6].filter { $0.isMultiple(of: 2) }.map { $0 * $0 })
    print(products.map { $0.price }.filter { $0 > 100 })
    let indexed = names.map { name in name.lowercased() }
    print(indexed)
}
