struct Message: Identifiable {
    let id: Int
    let text: String
}

enum Section: String, Identifiable, CaseIterable {
    case inbox, archive
    var id: String { rawValue }
}

func indexById<T: Identifiable>(_ items: [T]) -> [T.ID: T] {
    Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
}

func main() {
    let msgs = [Message(id: 3, text: "hi"), Message(id: 1, text: "yo")]
    let byId = indexById(msgs)
    print(byId.keys.sorted())
    print(byId[3]!.text)
    print(Section.allCases.map(\.id))
    let sections = indexById(Section.allCases)
    print(sections["archive"]!)
    print(msgs.map(\.id))
}
