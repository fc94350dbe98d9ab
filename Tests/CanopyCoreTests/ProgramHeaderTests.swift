import CanopyCore
import Testing

/// The `// canopy:` first line of a program file and the tree id of its file name, which canopyd's example loader
/// and `canopy run`/`import` share.
@Suite struct ProgramHeaderTests {
    @Test func aHeaderGivesViewTitleAndPreviewModifiers() throws {
        let source = """
            // canopy: view=SignupForm title="Signup \\"form\\"" previewModifiers=SampleData, description=d
            struct SignupForm: View { var body: some View { Text("hi") } }
            """
        let header = try ProgramHeader(source: source)
        #expect(header.view == "SignupForm")
        #expect(header.title == "Signup \"form\"")
        #expect(header.previewModifiers == ["SampleData"])
        #expect(header.description == "d")
    }

    @Test func previewModifiersAreCommaSeparated() throws {
        let header = try ProgramHeader(source: "// canopy: previewModifiers=A,PreviewModifierDemo.SampleData\n")
        #expect(header.previewModifiers == ["A", "PreviewModifierDemo.SampleData"])
        #expect(header.view == nil)
    }

    @Test func onlyTheFirstLineCounts() throws {
        #expect(try ProgramHeader(source: "import SwiftUI\n// canopy: view=X\n") == ProgramHeader())
        #expect(try ProgramHeader(source: "// a comment\n") == ProgramHeader())
        #expect(try ProgramHeader(source: "") == ProgramHeader())
    }

    @Test func malformedHeadersNameTheProblem() {
        #expect(throws: CanopyError(.badMessage, "header: unknown setting \"colour\" (settings: view, title, "
            + "description, previewModifiers)")) { try ProgramHeader(source: "// canopy: colour=red") }
        #expect(throws: CanopyError(.badMessage, "header: title= has no closing quote")) {
            try ProgramHeader(source: "// canopy: title=\"Signup\nform\"")
        }
        #expect(throws: CanopyError(.badMessage, "header: expected name=value, found \"view\"")) {
            try ProgramHeader(source: "// canopy: view")
        }
        #expect(throws: CanopyError(.badMessage, "header: view= needs a type name")) {
            try ProgramHeader(source: "// canopy: view=")
        }
    }

    @Test func theCreateTreeBodyCarriesTheSettingsGiven() {
        let header = ProgramHeader(view: "V", title: "T", previewModifiers: ["M"])
        let body = header.createTree(tree: "t", source: "src")
        #expect(JSON.object(body) == [
            "type": "createTree", "tree": "t", "source": "src", "view": "V", "previewModifiers": ["M"], "title": "T",
        ])
        #expect(JSON.object(ProgramHeader().createTree(tree: "t", source: "s"))
            == ["type": "createTree", "tree": "t", "source": "s"])
    }

    @Test func treeIDsAreLowerKebabBaseNames() {
        #expect(ProgramHeader.treeID(forFile: "config/examples/SignupForm.swift") == "signup-form")
        #expect(ProgramHeader.treeID(forFile: "signup-form.swift") == "signup-form")
        #expect(ProgramHeader.treeID(forFile: "/tmp/signup_form.swift") == "signup-form")
        #expect(ProgramHeader.treeID(forFile: "HTTPServerView.swift") == "http-server-view")
        #expect(ProgramHeader.treeID(forFile: "Form2Demo.swift") == "form2-demo")
        #expect(ProgramHeader.treeID(forFile: "my  odd__name!.swift") == "my-odd-name")
        #expect(ProgramHeader.treeID(forFile: "v1.2.swift") == "v1.2")
        #expect(ProgramHeader.treeID(forFile: "___.swift") == "")
    }
}
