struct Order {
    enum Status: String {
        case pending, shipped
    }

    struct Line {
        let sku: String
        let qty: Int
    }

    var status: Status = .pending
    var lines: [Line] = []

    var totalQuantity: Int { lines.reduce(0) { $0 + $1.qty } }
}

func main() {
    var o = Order()
    o.lines.append(Order.Line(sku: "A1", qty: 2))
    o.lines.append(.init(sku: "B2", qty: 5))
    print(o.totalQuantity)
    print(o.status.rawValue)
    o.status = .shipped
    print(o.status)
    let s = Order.Status(rawValue: "pending")
    print(s == .pending)
    let line = Order.Line(sku: "C", qty: 1)
    print(line)
}
