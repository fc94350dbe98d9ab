struct Celsius: CustomStringConvertible {
    let value: Double
    var description: String { "\(value)°C" }
}

enum Status: CustomStringConvertible {
    case ok, warn(Int)
    var description: String {
        switch self {
        case .ok: return "OK"
        case .warn(let n): return "WARN(\(n))"
        }
    }
}

func main() {
    let t = Celsius(value: 21)
    print(t)
    print("temp: \(t)")
    print([t, Celsius(value: -5.5)])
    print(Status.ok, Status.warn(3))
    print([Status.ok, .warn(1)])
    let opt: Celsius? = t
    print(opt as Any)
    print(String(describing: Status.warn(2)))
    let dict = ["a": Status.ok]
    print(dict)
}
