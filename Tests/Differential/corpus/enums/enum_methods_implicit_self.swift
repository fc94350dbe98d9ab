enum Category: String, CaseIterable, Identifiable {
    case work, personal, errands

    var id: String { rawValue }

    var title: String { rawValue.capitalizedFirst }

    var icon: String {
        switch self {
        case .work: return "briefcase"
        case .personal: return "person"
        case .errands: return "cart"
        }
    }

    func label(count: Int) -> String {
        "\(title) (\(count)) [\(icon)]"
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

func main() {
    for c in Category.allCases {
        print(c.id, c.title, c.icon)
    }
    print(Category.work.label(count: 3))
    print(Category.allCases.map(\.id))
}
