class Employee {
    let name: String
    let base: Int
    init(name: String, base: Int) {
        self.name = name
        self.base = base
    }
    func pay() -> Int { base }
    func title() -> String { "Employee" }
}

class Manager: Employee {
    var reports: [Employee] = []
    override func pay() -> Int { base + reports.count * 100 }
    override func title() -> String { "Manager" }
}

class Intern: Employee {
    override func pay() -> Int { base / 2 }
}

func main() {
    let m = Manager(name: "Mo", base: 1000)
    let e = Employee(name: "Ed", base: 800)
    let i = Intern(name: "Ivy", base: 600)
    m.reports = [e, i]
    let staff: [Employee] = [m, e, i]
    for s in staff {
        print(s.name, s.title(), s.pay())
    }
    print(staff.reduce(0) { $0 + $1.pay() })
    print(staff.filter { $0 is Manager }.count)
    if let mgr = staff[0] as? Manager {
        print(mgr.reports.map(\.name))
    }
}
