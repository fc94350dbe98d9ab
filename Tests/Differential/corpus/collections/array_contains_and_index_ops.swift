struct Member: Equatable {
    let id: Int
    let name: String
}

func main() {
    var team = [Member(id: 1, name: "A"), Member(id: 2, name: "B")]
    let c = Member(id: 3, name: "C")
    print(team.contains(c))
    team.append(c)
    print(team.contains(c))
    print(team.firstIndex(of: Member(id: 2, name: "B")) as Any)
    if let i = team.firstIndex(where: { $0.id == 1 }) {
        team[i] = Member(id: 1, name: "Alpha")
    }
    print(team.map(\.name))
    if let i = team.firstIndex(of: c) {
        team.remove(at: i)
    }
    print(team.map(\.name))
    print(team.first?.name as Any, team.last?.name as Any)
    print(team == [Member(id: 1, name: "Alpha"), Member(id: 2, name: "B")])
}
