enum LoadState {
    case idle
    case loading(Double)
    case loaded([String])
    case failed(message: String)
}

func main() {
    let states: [LoadState] = [.idle, .loading(0.3), .loaded(["a", "b"]), .failed(message: "oops"), .loading(1.0)]
    for s in states {
        if case .loading(let p) = s, p < 1 {
            print("in progress", p)
        } else if case .loading = s {
            print("finishing")
        } else if case let .loaded(items) = s {
            print("loaded", items.count)
        } else if case .failed(let msg) = s {
            print("failed:", msg)
        } else {
            print("idle")
        }
    }
    let s = LoadState.loaded([])
    let isEmptyLoad: Bool
    if case .loaded(let items) = s, items.isEmpty {
        isEmptyLoad = true
    } else {
        isEmptyLoad = false
    }
    print(isEmptyLoad)
    guard case .loaded = s else { return }
    print("guard case passed")
}
