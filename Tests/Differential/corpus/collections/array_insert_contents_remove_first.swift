func main() {
    var list = [1, 2, 3, 4, 5, 6]
    list.insert(contentsOf: [10, 11], at: 2)
    print(list)
    list.removeFirst(2)
    print(list)
    list.removeLast(2)
    print(list)
    list.removeSubrange(1...2)
    print(list)
    list.append(contentsOf: 7...9)
    print(list)
    list += [0]
    print(list)
    let tail = list + [100]
    print(tail.count, list.count)
    list.replaceSubrange(0..<1, with: [42, 43])
    print(list)
    print(list.firstIndex(of: 8)!, list.last!)
}
