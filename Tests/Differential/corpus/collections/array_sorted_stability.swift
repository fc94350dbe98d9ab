struct Entry {
    let group: Int
    let label: String
}

func main() {
    let entries = [
        Entry(group: 2, label: "a"), Entry(group: 1, label: "b"),
        Entry(group: 2, label: "c"), Entry(group: 1, label: "d"),
        Entry(group: 3, label: "e"), Entry(group: 1, label: "f"),
    ]
    let sorted = entries.sorted { $0.group < $1.group }
    print(sorted.map { "\($0.group)\($0.label)" })
    let desc = entries.sorted { $0.group > $1.group }
    print(desc.map { "\($0.group)\($0.label)" })
    let byLabelDesc = entries.sorted { $0.label > $1.label }
    print(byLabelDesc.map(\.label).joined())
    let many = (0..<20).map { Entry(group: $0 % 3, label: String($0)) }
    print(many.sorted { $0.group < $1.group }.map(\.label).joined(separator: ","))
}
