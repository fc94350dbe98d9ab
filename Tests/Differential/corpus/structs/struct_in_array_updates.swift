struct Todo {
    var title: String
    var done = false
}

func main() {
    var todos = [Todo(title: "a"), Todo(title: "b"), Todo(title: "c")]
    todos[1].done = true
    print(todos.map { "\($0.title):\($0.done)" })
    for i in todos.indices where todos[i].title != "b" {
        todos[i].title += "!"
    }
    print(todos.map(\.title))
    var first = todos[0]
    first.done = true
    print(todos[0].done, first.done)
    todos = todos.map { t in
        var copy = t
        copy.done.toggle()
        return copy
    }
    print(todos.map(\.done))
    print(todos.filter { !$0.done }.map(\.title))
}
