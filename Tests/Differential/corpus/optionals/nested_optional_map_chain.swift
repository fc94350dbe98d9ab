struct Profile {
    var nickname: String?
}

func main() {
    let profile: Profile? = Profile(nickname: nil)
    let viaMap = profile.map { $0.nickname }
    let viaFlat = profile.flatMap { $0.nickname }
    let viaChain = profile?.nickname
    print(viaMap as Any)
    print(viaFlat as Any)
    print(viaChain as Any)
    print(viaMap == nil, viaFlat == nil)
    let none: Profile? = nil
    print(none.map { $0.nickname } as Any)
    let named: Profile? = Profile(nickname: "z")
    print(named.map { $0.nickname } as Any, named?.nickname as Any)
    if let outer = viaMap {
        print("outer present, inner:", outer as Any)
    }
}
