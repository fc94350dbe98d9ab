var trace: [String] = []

func work(_ fail: Bool) -> String {
    trace.append("start")
    defer { trace.append("defer 1") }
    defer { trace.append("defer 2") }
    if fail {
        trace.append("failing")
        return "failed"
    }
    do {
        defer { trace.append("inner defer") }
        trace.append("inner body")
    }
    trace.append("end")
    return "ok"
}

func counter() -> Int {
    var x = 1
    defer { x = 100 }
    return x
}

func main() {
    print(work(false))
    print(trace)
    trace = []
    print(work(true))
    print(trace)
    print(counter())
    for i in 0..<2 {
        defer { print("loop defer", i) }
        print("loop body", i)
    }
}
