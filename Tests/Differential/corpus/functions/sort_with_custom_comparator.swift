struct File {
    let name: String
    let size: Int
    let isFolder: Bool
}

func finderOrder(_ a: File, _ b: File) -> Bool {
    if a.isFolder != b.isFolder { return a.isFolder }
    if a.size != b.size { return a.size > b.size }
    return a.name < b.name
}

func main() {
    let files = [
        File(name: "b.txt", size: 10, isFolder: false),
        File(name: "src", size: 0, isFolder: true),
        File(name: "a.txt", size: 10, isFolder: false),
        File(name: "big.mov", size: 900, isFolder: false),
        File(name: "assets", size: 0, isFolder: true),
    ]
    print(files.sorted(by: finderOrder).map(\.name))
    print(files.sorted { $0.name.count < $1.name.count }.map(\.name))
    let byName: (File, File) -> Bool = { $0.name < $1.name }
    print(files.sorted(by: byName).map(\.name))
    print(files.min(by: byName)!.name, files.max(by: byName)!.name)
}
