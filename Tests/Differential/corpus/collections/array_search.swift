struct Song {
    let title: String
    let plays: Int
}

func main() {
    let songs = [Song(title: "Intro", plays: 3), Song(title: "Hit", plays: 90), Song(title: "Outro", plays: 12), Song(title: "Hit", plays: 5)]
    print(songs.contains { $0.plays > 50 })
    print(songs.contains(where: { $0.title == "Bonus" }))
    print(songs.first(where: { $0.plays > 10 })?.title as Any)
    print(songs.last(where: { $0.plays > 10 })?.title as Any)
    print(songs.firstIndex(where: { $0.title == "Hit" }) as Any)
    print(songs.lastIndex(where: { $0.title == "Hit" }) as Any)
    let titles = songs.map(\.title)
    print(titles.firstIndex(of: "Outro") as Any)
    print(titles.lastIndex(of: "Hit") as Any)
    print(titles.firstIndex(of: "Nope") as Any)
    print(titles.contains("Intro"))
    print(songs.allSatisfy { $0.plays > 0 }, songs.allSatisfy { $0.plays > 3 })
    print([Int]().allSatisfy { $0 > 100 })
}
