protocol Scorable {
    var score: Int { get }
}

struct Player: Scorable {
    let name: String
    let score: Int
}

struct Team: Scorable {
    let members: [Player]
    var score: Int { members.reduce(0) { $0 + $1.score } }
}

func best<T: Scorable>(_ items: [T]) -> T? {
    items.max { $0.score < $1.score }
}

func totalScore(_ items: [any Scorable]) -> Int {
    items.reduce(0) { $0 + $1.score }
}

func main() {
    let players = [Player(name: "a", score: 5), Player(name: "b", score: 9), Player(name: "c", score: 2)]
    print(best(players)!.name)
    let teams = [Team(members: Array(players.prefix(2))), Team(members: [players[2]])]
    print(best(teams)!.score)
    print(totalScore(players), totalScore(teams))
    let mixed: [any Scorable] = [players[0], teams[1]]
    print(totalScore(mixed))
}
