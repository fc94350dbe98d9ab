struct Meter {
    var log: [String] = []
    var value: Int = 0 {
        willSet { log.append("will \(value)->\(newValue)") }
        didSet(previous) {
            if value > 100 { value = 100 }
            log.append("did \(previous)->\(value)")
        }
    }
    init() { value = 5 }
    mutating func bump() { value += 60 }
}
class Account {
    var balance = 0 {
        didSet { history.append(balance - oldValue) }
    }
    var history: [Int] = []
}
func main() {
    var m = Meter()
    m.value = 10
    m.bump()
    m.bump()
    print(m.value, m.log)
    let a = Account()
    a.balance += 30
    a.balance -= 5
    print(a.balance, a.history)
    var meters = [Meter()]
    meters[0].value = 7
    print(meters[0].log)
}
