struct Button {
    let title: String
    var role: String = "normal"
    let action: () -> String
}

struct Row {
    let label: String
    var detail: String? = nil
    var onTap: (String) -> String = { "tapped \($0)" }
}

func main() {
    let b1 = Button(title: "Save") { "saved" }
    let b2 = Button(title: "Delete", role: "destructive") { "deleted" }
    let b3 = Button(title: "Cancel", action: { "cancelled" })
    for b in [b1, b2, b3] {
        print(b.title, b.role, b.action())
    }
    let r1 = Row(label: "A")
    let r2 = Row(label: "B", detail: "info") { "custom \($0)" }
    print(r1.onTap(r1.label), r1.detail ?? "-")
    print(r2.onTap(r2.label), r2.detail ?? "-")
}
