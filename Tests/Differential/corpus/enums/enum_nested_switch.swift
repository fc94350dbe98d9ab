enum Account {
    enum Tier: String { case free, pro }
    case guest
    case member(name: String, tier: Tier)
}

func banner(_ a: Account) -> String {
    switch a {
    case .guest:
        return "Welcome, guest"
    case .member(let name, .pro):
        return "Welcome back, \(name) ⭐"
    case .member(let name, let tier):
        return "Hi \(name) (\(tier.rawValue))"
    }
}

func main() {
    print(banner(.guest))
    print(banner(.member(name: "Ann", tier: .pro)))
    print(banner(.member(name: "Bob", tier: .free)))
    let t = Account.Tier(rawValue: "pro")
    print(t!, t == .pro)
    let accounts: [Account] = [.guest, .member(name: "C", tier: .free)]
    let members = accounts.filter {
        if case .member = $0 { return true }
        return false
    }
    print(members.count)
}
