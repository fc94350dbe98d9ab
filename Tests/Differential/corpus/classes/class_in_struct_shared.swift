class Counter {
    var value = 0
}

struct ViewModel {
    var title: String
    let counter: Counter
}

func main() {
    let shared = Counter()
    let a = ViewModel(title: "a", counter: shared)
    var b = a
    b.title = "b"
    b.counter.value += 5
    print(a.title, a.counter.value)
    print(b.title, b.counter.value)
    a.counter.value *= 2
    print(b.counter.value, shared.value)
    print(a.counter === b.counter)
    let models = Array(repeating: ViewModel(title: "x", counter: Counter()), count: 3)
    models[0].counter.value = 7
    print(models.map { $0.counter.value })
}
