class Controller {
    var title: String!

    func header() -> String {
        return "[" + title + "]"
    }
}

func main() {
    let c = Controller()
    c.title = "Home"
    print(c.header())
    c.title = nil
    print("title cleared")
    print(c.header())
}
