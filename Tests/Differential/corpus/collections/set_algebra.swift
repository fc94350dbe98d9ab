func main() {
    let a: Set = [1, 2, 3, 4]
    let b: Set = [3, 4, 5]
    print(a.union(b).sorted())
    print(a.intersection(b).sorted())
    print(a.subtracting(b).sorted())
    print(a.symmetricDifference(b).sorted())
    print(a.isSubset(of: b), Set([3, 4]).isSubset(of: a))
    print(a.isSuperset(of: [1, 2]), a.isDisjoint(with: [9]))
    var c = a
    c.formUnion([10])
    c.subtract([1])
    print(c.sorted())
    c.formIntersection([2, 10, 11])
    print(c.sorted())
    let words: Set = ["apple", "pear"]
    let other: Set<String> = ["pear", "plum"]
    print(words.union(other).sorted().joined(separator: ","))
    print(words.filter { $0.count > 4 }.sorted())
    print(a.map { $0 * 2 }.sorted())
}
