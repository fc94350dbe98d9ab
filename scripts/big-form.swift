// canopy: view=BigForm title="1000-field form" description="canopy-bench --programs' form"
import SwiftUI

protocol ValidationRule {
    func validate(_ text: String, field: String) -> String?
}

struct Required: ValidationRule {
    func validate(_ text: String, field: String) -> String? {
        text.isEmpty ? "\(field) is required" : nil
    }
}

struct MinimumLength: ValidationRule {
    let length: Int

    func validate(_ text: String, field: String) -> String? {
        text.count < length ? "\(field) needs \(length - text.count) more characters" : nil
    }
}

struct FieldMessages: PreferenceKey {
    static var defaultValue: [String] = []

    static func reduce(value: inout [String], nextValue: () -> [String]) {
        value.append(contentsOf: nextValue())
    }
}

struct FormField: View {
    let index: Int
    let minimumLength: Int
    @State private var text = ""

    private var message: String? {
        let rules: [any ValidationRule] = [Required(), MinimumLength(length: minimumLength)]
        for rule in rules {
            if let m = rule.validate(text, field: "Field \(index + 1)") { return m }
        }
        return nil
    }

    var body: some View {
        let message = self.message
        VStack(alignment: .leading) {
            TextField("Field \(index + 1)", text: $text)
            if let message {
                Text(message).foregroundStyle(.red)
            }
        }
        .preference(key: FieldMessages.self, value: message.map { [$0] } ?? [])
    }
}

struct BigForm: View {
    @State private var messageCount = 0

    var body: some View {
        Form {
            Section {
                Text("\(messageCount) fields need attention")
            }
            ForEach(0..<20, id: \.self) { s in
                Section("Section \(s + 1)") {
                    ForEach(0..<50, id: \.self) { i in
                        FormField(index: s * 50 + i, minimumLength: 3)
                    }
                }
            }
        }
        .onPreferenceChange(FieldMessages.self) { messageCount = $0.count }
    }
}
