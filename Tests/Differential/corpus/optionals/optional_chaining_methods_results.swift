struct Playlist {
    var songs: [String]
    func longest() -> String? {
        songs.max { $0.count < $1.count }
    }
    mutating func add(_ s: String) -> Int {
        songs.append(s)
        return songs.count
    }
}

func main() {
    var list: Playlist? = Playlist(songs: ["Intro", "Finale"])
    print(list?.longest() as Any)
    print(list?.longest()?.count as Any)
    print(list?.add("Encore") as Any)
    let added: Int? = list?.add("Bonus")
    print(added as Any)
    if let n = list?.add("x") {
        print("now", n)
    }
    list = nil
    print(list?.add("lost") as Any)
    print(list?.longest()?.count ?? 0)
    let empty: Playlist? = Playlist(songs: [])
    print(empty?.longest() as Any, (empty?.longest()).map { $0 } as Any)
}
