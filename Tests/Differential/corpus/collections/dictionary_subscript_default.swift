func main() {
    var inventory: [String: Int] = [:]
    inventory["apples", default: 0] += 5
    inventory["apples", default: 0] += 3
    inventory["pears", default: 10] -= 1
    print(inventory["apples"]!, inventory["pears"]!)
    print(inventory["kiwi", default: 0])
    print(inventory.count)
    var groups: [String: [String]] = [:]
    groups["fruit", default: []].append("fig")
    groups["fruit", default: []].append("plum")
    groups["veg", default: []].append("kale")
    for k in groups.keys.sorted() {
        print(k, groups[k]!)
    }
    inventory["apples"] = nil
    print(inventory.keys.sorted())
    inventory["apples"] = 1
    print(inventory.keys.sorted(), inventory.values.sorted())
}
