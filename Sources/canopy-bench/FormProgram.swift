/// The generated form program of `canopy-bench --programs` (and of the daemon's event load): `fields` validated
/// fields in sections of `perSection`, each field a view struct that keeps its text in its own `@State` (with
/// `binding`, it passes `$text` to a `FieldRow` view whose `@Binding` does the rest), validates it and sends its
/// message up through the `FieldMessages` preference key (or only their number, with `counts`); the form counts the
/// messages in `onPreferenceChange` and shows the count.
///
/// A field's message is "required" when empty, "needs N more" below the minimum length, and gone from there on, so
/// typing `a`, `ab` changes the field's message but not the count, `abc` changes the count, `abcd` changes nothing
/// the form sees.
enum FormProgram {
    static let minimumLength = 3

    /// `counts`: the key carries each field's number of messages (`Int`, summed) instead of the messages.
    /// `label`: the count is shown by a `CountLabel` view given `$messageCount`, so the form's body does not read it.
    static func source(fields: Int, perSection: Int, binding: Bool, counts: Bool = false, label: Bool = false)
        -> String
    {
        let sections = (fields + perSection - 1) / perSection
        // With `binding`, the validated view is a FieldRow with a @Binding to its FormField's @State.
        let validated = binding ? "FieldRow" : "FormField"
        let fieldState = binding ? "    @Binding var text: String" : "    @State private var text = \"\""
        let wrapper =
            binding
            ? "\n\n"
                + """
                struct FormField: View {
                    let index: Int
                    let minimumLength: Int
                    @State private var text = ""

                    var body: some View {
                        FieldRow(index: index, minimumLength: minimumLength, text: $text)
                    }
                }
                """ : ""
        let key =
            counts
            ? """
                struct FieldMessages: PreferenceKey {
                    static var defaultValue = 0

                    static func reduce(value: inout Int, nextValue: () -> Int) {
                        value += nextValue()
                    }
                }
                """
            : """
                struct FieldMessages: PreferenceKey {
                    static var defaultValue: [String] = []

                    static func reduce(value: inout [String], nextValue: () -> [String]) {
                        value.append(contentsOf: nextValue())
                    }
                }
                """
        let countView = label ? "CountLabel(count: $messageCount)" : "Text(\"\\(messageCount) fields need attention\")"
        let countLabel =
            label
            ? "\n\n"
                + """
                struct CountLabel: View {
                    @Binding var count: Int

                    var body: some View {
                        Text("\\(count) fields need attention")
                    }
                }
                """ : ""
        let keyValue = counts ? "message == nil ? 0 : 1" : "message.map { [$0] } ?? []"
        let count = counts ? "$0" : "$0.count"
        return """
            // canopy: view=BigForm title="\(fields)-field form" description="canopy-bench --programs' form"
            import SwiftUI

            protocol ValidationRule {
                func validate(_ text: String, field: String) -> String?
            }

            struct Required: ValidationRule {
                func validate(_ text: String, field: String) -> String? {
                    text.isEmpty ? "\\(field) is required" : nil
                }
            }

            struct MinimumLength: ValidationRule {
                let length: Int

                func validate(_ text: String, field: String) -> String? {
                    text.count < length ? "\\(field) needs \\(length - text.count) more characters" : nil
                }
            }

            \(key)

            struct \(validated): View {
                let index: Int
                let minimumLength: Int
            \(fieldState)

                private var message: String? {
                    let rules: [any ValidationRule] = [Required(), MinimumLength(length: minimumLength)]
                    for rule in rules {
                        if let m = rule.validate(text, field: "Field \\(index + 1)") { return m }
                    }
                    return nil
                }

                var body: some View {
                    let message = self.message
                    VStack(alignment: .leading) {
                        TextField("Field \\(index + 1)", text: $text)
                        if let message {
                            Text(message).foregroundStyle(.red)
                        }
                    }
                    .preference(key: FieldMessages.self, value: \(keyValue))
                }
            }\(wrapper)\(countLabel)

            struct BigForm: View {
                @State private var messageCount = 0

                var body: some View {
                    Form {
                        Section {
                            \(countView)
                        }
                        ForEach(0..<\(sections), id: \\.self) { s in
                            Section("Section \\(s + 1)") {
                                ForEach(0..<\(perSection), id: \\.self) { i in
                                    FormField(index: s * \(perSection) + i, minimumLength: \(minimumLength))
                                }
                            }
                        }
                    }
                    .onPreferenceChange(FieldMessages.self) { messageCount = \(count) }
                }
            }

            """
    }
}
