class Profile {
    var name = "anonymous"
    var followers = 0
    var bio: String?
    var tags: [String] = []
    let created: Int

    init() {
        created = 1
    }

    init(name: String) {
        self.name = name
        created = 2
    }
}

func main() {
    let a = Profile()
    print(a.name, a.followers, a.bio as Any, a.tags, a.created)
    let b = Profile(name: "zed")
    b.followers += 10
    b.bio = "hi"
    b.tags.append("new")
    print(b.name, b.followers, b.bio ?? "-", b.tags, b.created)
    let c = b
    c.name = "changed"
    print(b.name)
}
