protocol Stackable {
    associatedtype Element
    var elements: [Element] { get }
}

extension Stackable where Element: Numeric {
    var sum: Element { elements.reduce(0, +) }
}

extension Stackable where Element == String {
    var joined: String { elements.joined(separator: "+") }
}

extension Stackable {
    var size: Int { elements.count }
}

struct Numbers: Stackable {
    var elements: [Int]
}

struct Words: Stackable {
    var elements: [String]
}

extension Array where Element: Comparable {
    var isSortedAscending: Bool {
        zip(self, dropFirst()).allSatisfy { $0 <= $1 }
    }
}

func main() {
    let n = Numbers(elements: [1, 2, 3])
    print(n.sum, n.size)
    let w = Words(elements: ["a", "b"])
    print(w.joined, w.size)
    print([1, 2, 2, 5].isSortedAscending, [3, 1].isSortedAscending, ["a", "b"].isSortedAscending)
}
