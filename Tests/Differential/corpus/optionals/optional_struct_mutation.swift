struct Draft {
    var title: String
    var words: Int = 0

    mutating func add(_ n: Int) {
        words += n
    }
}

func main() {
    var draft: Draft? = Draft(title: "Notes")
    draft?.add(10)
    draft?.add(5)
    print(draft?.words as Any)
    draft?.title += "!"
    print(draft?.title ?? "")
    var copy = draft
    copy?.add(100)
    print(draft!.words, copy!.words)
    draft = nil
    draft?.add(1)
    print(draft as Any)
    var drafts: [Draft?] = [Draft(title: "a"), nil]
    drafts[0]?.add(3)
    drafts[1]?.add(3)
    print(drafts[0]?.words as Any, drafts[1]?.words as Any)
}
