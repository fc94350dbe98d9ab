protocol Named {
    func requiredName() -> String
}

extension Named {
    func requiredName() -> String { "default required" }
    func extensionName() -> String { "default extension" }
}

struct Cat: Named {
    func requiredName() -> String { "Cat required" }
    func extensionName() -> String { "Cat extension" }
}

func viaGeneric<T: Named>(_ t: T) -> String {
    t.requiredName() + " | " + t.extensionName()
}

func main() {
    let c = Cat()
    print(c.requiredName())
    print(c.extensionName())
    let e: any Named = c
    print(e.requiredName())
    print(e.extensionName())
    print(viaGeneric(c))
    let list: [Named] = [c]
    print(list[0].extensionName())
}
