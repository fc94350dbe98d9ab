struct Config {
    var retries = 3
    var hosts: [String] = ["a"]
}

func modify(_ c: Config) -> Config {
    var local = c
    local.retries *= 2
    local.hosts.append("b")
    return local
}

func main() {
    let fixed = Config()
    let changed = modify(fixed)
    print(fixed.retries, fixed.hosts)
    print(changed.retries, changed.hosts)
    var a = Config()
    let snapshot = a
    a.retries = 0
    a.hosts = []
    print(snapshot.retries, snapshot.hosts, a.retries, a.hosts)
    var configs = Array(repeating: Config(), count: 2)
    configs[0].retries = 9
    print(configs.map(\.retries))
}
