import CanopyCore
import Testing

/// `if`/`else` in a builder closure is an `If` container (PROGRAMS.md §3), wherever the parser puts the statement.
@Suite struct BuilderIfTests {
    static let source = """
        import SwiftUI

        struct Field: View {
            @State private var secure = true
            var body: some View {
                VStack {
                    if secure {
                        SecureField("PIN", text: .constant(""))
                    } else {
                        TextField("PIN", text: .constant(""))
                    }
                    Toggle("Hide", isOn: $secure)
                }
            }
        }
        """

    @Test func anIfElseInAVStackIsAnIfContainer() throws {
        var p = try ProgramFixture(Self.source, view: "Field")
        let stack = try #require(p.node("Field/0:VStack"))
        #expect(stack.children.map(\.id) == ["Field/0:VStack/0:If", "Field/0:VStack/1:Toggle"])
        #expect(p.node("Field/0:VStack/0:If")?.children.map(\.id) == ["Field/0:VStack/0:If/0-0:SecureField"])

        let t = try p.send("Field/0:VStack/1:Toggle", "setValue", false)
        #expect(
            t.diff.ops.map(\.json) == [
                Op.remove(node: "Field/0:VStack/0:If/0-0:SecureField").json,
                Op.insert(
                    parent: "Field/0:VStack/0:If",
                    node: Node(
                        id: "Field/0:VStack/0:If/1-0:TextField", type: "TextField", props: ["title": "PIN", "text": ""]),
                    position: .index(0)
                ).json,
                Op.setProps(node: "Field/0:VStack/1:Toggle", props: ["isOn": false]).json,
            ])
    }
}
