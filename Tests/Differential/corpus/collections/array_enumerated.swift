func main() {
    let steps = ["mix", "bake", "cool"]
    for (index, step) in steps.enumerated() {
        print("\(index + 1). \(step)")
    }
    for item in steps.enumerated() {
        print(item.offset, item.element)
    }
    let odd = steps.enumerated().filter { $0.offset % 2 == 0 }.map { $0.element }
    print(odd)
    let labeled = steps.enumerated().map { "\($0)-\($1)" }
    print(labeled)
    let slice = steps[1...]
    for (i, s) in slice.enumerated() {
        print("slice", i, s)
    }
    for (i, s) in zip(slice.indices, slice) {
        print("index", i, s)
    }
    print(Array(steps.enumerated()).count)
}
