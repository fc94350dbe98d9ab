/// What a program file may say about its tree on its first line, so a bare `.swift` file is a complete example:
/// `// canopy: view=SignupForm title="Signup form" previewModifiers=SampleData,Dark`. canopyd's example loader and
/// `canopy run`/`import` read it the same way.
public struct ProgramHeader: Sendable, Equatable {
    /// The root view (`createTree.view`); nil: the daemon's default (the view `#Preview` shows, else ContentView).
    public var view: String?
    public var title: String?
    public var description: String?
    /// Preview modifier type names, comma-separated in the header.
    public var previewModifiers: [String] = []

    /// The settings a header may give.
    public static let settings = ["view", "title", "description", "previewModifiers"]

    public init(view: String? = nil, title: String? = nil, description: String? = nil, previewModifiers: [String] = [])
    {
        self.view = view
        self.title = title
        self.description = description
        self.previewModifiers = previewModifiers
    }

    /// The header of `source`: its first line when that starts with `// canopy:`, else no settings. A malformed
    /// header (an unknown setting, an unterminated quote) throws `bad_message` naming what is wrong.
    public init(source: String) throws(CanopyError) {
        self.init()
        let firstLine = source.prefix { $0 != "\n" && $0 != "\r" }
        let marker = "// canopy:"
        guard firstLine.hasPrefix(marker) else { return }
        for (name, value) in try Self.settings(in: Array(firstLine.dropFirst(marker.count))) {
            switch name {
            case "view":
                guard !value.isEmpty else { throw CanopyError(.badMessage, "header: view= needs a type name") }
                view = value
            case "title": title = value
            case "description": description = value
            case "previewModifiers":
                previewModifiers = value.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty }
            default:
                let known = Self.settings.joined(separator: ", ")
                throw CanopyError(.badMessage, "header: unknown setting \"\(name)\" (settings: \(known))")
            }
        }
    }

    /// `name=value` pairs separated by spaces; a value is a run of non-space characters or a "quoted string" with
    /// `\"` and `\\` escapes.
    private static func settings(in text: [Character]) throws(CanopyError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        var i = 0
        while true {
            while i < text.count && text[i].isWhitespace { i += 1 }
            guard i < text.count else { return pairs }
            var name = ""
            while i < text.count && text[i] != "=" && !text[i].isWhitespace {
                name.append(text[i])
                i += 1
            }
            guard i < text.count && text[i] == "=" else {
                throw CanopyError(.badMessage, "header: expected name=value, found \"\(name)\"")
            }
            i += 1
            var value = ""
            if i < text.count && text[i] == "\"" {
                i += 1
                while i < text.count && text[i] != "\"" {
                    if text[i] == "\\" && i + 1 < text.count { i += 1 }
                    value.append(text[i])
                    i += 1
                }
                guard i < text.count else { throw CanopyError(.badMessage, "header: \(name)= has no closing quote") }
                i += 1
            } else {
                while i < text.count && !text[i].isWhitespace {
                    value.append(text[i])
                    i += 1
                }
            }
            pairs.append((name, value))
        }
    }

    /// The `createTree` body of a program tree `tree` running `source` with these settings.
    public func createTree(tree: String, source: String) -> JSONObject {
        var body: JSONObject = ["type": "createTree", "tree": .string(tree), "source": .string(source)]
        if let view { body["view"] = .string(view) }
        if !previewModifiers.isEmpty { body["previewModifiers"] = .array(previewModifiers.map { .string($0) }) }
        if let title { body["title"] = .string(title) }
        if let description { body["description"] = .string(description) }
        return body
    }

    /// The tree id of a program file: its base name in lower kebab case (`SignupForm.swift`, `signup_form.swift`
    /// → `signup-form`), so file names of either style give ids like the JSON examples'.
    public static func treeID(forFile path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(".swift") { name.removeLast(".swift".count) }
        let characters = Array(name)
        var id = ""
        for (i, c) in characters.enumerated() {
            if c.isASCII && (c.isLetter || c.isNumber) || c == "." {
                // A capital starts a word after a lower-case letter or digit, or before one in an acronym (HTTPServer).
                let previous = i > 0 ? characters[i - 1] : nil
                let next = i + 1 < characters.count ? characters[i + 1] : nil
                if c.isUppercase, let previous, previous.isASCII,
                    previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true)
                {
                    id.append("-")
                }
                id.append(Character(c.lowercased()))
            } else if !id.isEmpty && id.last != "-" {
                id.append("-")
            }
        }
        while id.hasSuffix("-") { id.removeLast() }
        return String(id.prefix(128))
    }
}

extension String {
    fileprivate var trimmed: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}
