struct Expense {
    let category: String
    let amount: Int
}

func main() {
    let expenses = [
        Expense(category: "food", amount: 12),
        Expense(category: "travel", amount: 40),
        Expense(category: "food", amount: 8),
        Expense(category: "books", amount: 15),
        Expense(category: "travel", amount: 5),
    ]
    let grouped = Dictionary(grouping: expenses, by: { $0.category })
    for key in grouped.keys.sorted() {
        let amounts = grouped[key]!.map(\.amount)
        print(key, amounts, amounts.reduce(0, +))
    }
    let words = ["ant", "bee", "cat", "ape", "bat"]
    let byFirst = Dictionary(grouping: words) { $0.first! }
    for k in byFirst.keys.sorted() {
        print(k, byFirst[k]!)
    }
    let byLength = Dictionary(grouping: ["a", "bb", "cc", "d"], by: \.count)
    print(byLength.keys.sorted(), byLength[2]!)
}
