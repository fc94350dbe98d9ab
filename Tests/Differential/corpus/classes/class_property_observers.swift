class Player {
    var history: [String] = []
    var score: Int = 0 {
        willSet { history.append("will \(newValue)") }
        didSet { history.append("did \(oldValue)->\(score)") }
    }
}

class Pro: Player {
    override var score: Int {
        didSet { history.append("pro saw \(score)") }
    }
}

func main() {
    let p = Player()
    p.score = 5
    p.score += 1
    print(p.history)
    let q = Pro()
    q.score = 9
    print(q.history)
}
