struct Player {
    var name: String
    var scores: [Int]
}

func bump(_ p: Player) -> Player {
    var q = p
    q.scores.append(100)
    return q
}

func main() {
    var a = Player(name: "A", scores: [1])
    var b = a
    b.name = "B"
    b.scores.append(2)
    print(a.name, a.scores)
    print(b.name, b.scores)
    let c = bump(a)
    print(a.scores, c.scores)
    var team = [a, b]
    team[0].scores.removeAll()
    print(a.scores, team[0].scores)
    a.scores = [9]
    print(team[0].scores, a.scores)
    for var p in team {
        p.name = "changed"
    }
    print(team.map(\.name))
}
