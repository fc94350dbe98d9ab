struct UndoStack {
    var actions: [String] = []

    mutating func undo() -> String {
        return actions.removeLast()
    }
}

func main() {
    var stack = UndoStack(actions: ["type", "delete"])
    print(stack.undo())
    print(stack.undo())
    print("stack empty:", stack.actions.isEmpty)
    print(stack.undo())
}
