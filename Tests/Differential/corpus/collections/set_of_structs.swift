struct Coordinate: Hashable {
    let x: Int
    let y: Int
}

func main() {
    var visited: Set<Coordinate> = []
    let path = [Coordinate(x: 0, y: 0), Coordinate(x: 1, y: 0), Coordinate(x: 0, y: 0), Coordinate(x: 1, y: 1)]
    for step in path {
        let result = visited.insert(step)
        print(step.x, step.y, result.inserted)
    }
    print(visited.count)
    print(visited.contains(Coordinate(x: 1, y: 1)))
    let sorted = visited.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
    print(sorted.map { "(\($0.x),\($0.y))" })
    let unique = Array(Set(["b", "a", "b"])).sorted()
    print(unique)
}
