enum Severity: Int, Comparable, CaseIterable {
    case info, warning, error, critical

    static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

enum Size: Comparable {
    case small, medium, large
}

func main() {
    let logs: [Severity] = [.error, .info, .critical, .warning, .info]
    print(logs.sorted().map { "\($0)" })
    print(logs.max()!)
    print(logs.filter { $0 >= .error }.map(\.rawValue))
    print(Severity.warning < .error, Severity.critical > .info)
    print([Size.large, .small, .medium].sorted().map { "\($0)" })
    print(Size.small < Size.large)
    print(Severity.allCases.reversed().map(\.rawValue))
}
