protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

struct EnvironmentValues {
    private var storage: [ObjectIdentifier: Any] = [:]

    subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { storage[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue }
        set { storage[ObjectIdentifier(key)] = newValue }
    }
}

struct AccentKey: EnvironmentKey {
    static let defaultValue = "blue"
}

struct SpacingKey: EnvironmentKey {
    static var defaultValue: Double { 8 }
}

extension EnvironmentValues {
    var accent: String {
        get { self[AccentKey.self] }
        set { self[AccentKey.self] = newValue }
    }
    var spacing: Double {
        get { self[SpacingKey.self] }
        set { self[SpacingKey.self] = newValue }
    }
}

func main() {
    var env = EnvironmentValues()
    print(env.accent, env.spacing)
    env.accent = "red"
    print(env.accent, env.spacing)
    var child = env
    child.spacing = 16
    print(env.spacing, child.spacing, child.accent)
}
