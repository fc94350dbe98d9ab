protocol Plugin {
    static var id: String { get }
    static func make() -> Plugin
    func run() -> String
}

struct Logger: Plugin {
    static let id = "logger"
    static func make() -> Plugin { Logger() }
    func run() -> String { "logging" }
}

struct Cache: Plugin {
    static let id = "cache"
    static func make() -> Plugin { Cache() }
    func run() -> String { "caching" }
}

func main() {
    let types: [Plugin.Type] = [Logger.self, Cache.self]
    for t in types {
        print(t.id, t.make().run())
    }
    let registry = Dictionary(uniqueKeysWithValues: types.map { ($0.id, $0) })
    print(registry.keys.sorted())
    if let t = registry["cache"] {
        print(t.make().run())
    }
    let one: Plugin.Type = Logger.self
    print(one.id, type(of: Logger()).id)
}
