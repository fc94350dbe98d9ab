enum Status { case ok, warn(Int), failed }
func label(_ s: Status) -> String {
    let text = switch s {
    case .ok: "fine"
    case .warn(let n) where n > 2: "many warnings"
    case .warn(let n): "\(n) warning"
    case .failed: "failed"
    }
    return text
}
func main() {
    for s in [Status.ok, .warn(1), .warn(5), .failed] { print(label(s)) }
    let x = 7
    let size = if x > 5 { "big" } else if x > 2 { "medium" } else { "small" }
    var total: Double = if x > 0 { 1 } else { 0 }
    total += 0.5
    let maybe: Int? = if x > 100 { x } else { nil }
    print(size, total, maybe as Any)
}
