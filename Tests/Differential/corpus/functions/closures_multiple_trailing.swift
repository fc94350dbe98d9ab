struct Binding<Value> {
    let get: () -> Value
    let set: (Value) -> Void

    init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }
}

func perform(_ name: String, action: () -> Void, completion: (String) -> Void) {
    action()
    completion(name + " done")
}

func main() {
    var username = "ann"
    var log: [String] = []
    let b = Binding {
        username
    } set: {
        log.append("set \($0)")
        username = $0
    }
    print(b.get())
    b.set("bob")
    print(b.get(), username, log)
    perform("job") {
        print("running")
    } completion: { msg in
        print(msg)
    }
}
