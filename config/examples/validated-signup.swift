// canopy: view=SignupForm title="Validated signup form" description="Each field checks what is typed against its validation rules and sends its messages up through ValidationMessages. The form counts them with grammar agreement and enables its button once nothing is left."
import SwiftUI

// MARK: - Validation rules

protocol ValidationRule {
    func validate(_ text: String) -> String?
}

struct Required: ValidationRule {
    let field: String

    func validate(_ text: String) -> String? {
        text.isEmpty ? "\(field) is required" : nil
    }
}

struct EmailAddress: ValidationRule {
    func validate(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        let parts = text.split(separator: "@")
        guard parts.count == 2, parts[1].contains("."), !parts[1].hasSuffix(".") else {
            return "Enter a valid email address"
        }
        return nil
    }
}

struct MinimumLength: ValidationRule {
    let field: String
    let length: Int

    func validate(_ text: String) -> String? {
        !text.isEmpty && text.count < length ? "\(field) must be at least \(length) characters" : nil
    }
}

struct ContainsDigit: ValidationRule {
    func validate(_ text: String) -> String? {
        let digits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
        return digits.contains { text.contains($0) } ? nil : "Password must contain a digit"
    }
}

struct Matches: ValidationRule {
    let other: String

    func validate(_ text: String) -> String? {
        text == other ? nil : "Passwords do not match"
    }
}

// MARK: - Messages travel up as a preference

struct ValidationMessages: PreferenceKey {
    static var defaultValue: [String] = []

    static func reduce(value: inout [String], nextValue: () -> [String]) {
        value.append(contentsOf: nextValue())
    }
}

// MARK: - Views

struct ValidatedField: View {
    let title: String
    @Binding var text: String
    var isSecure = false
    let rules: [any ValidationRule]

    private var messages: [String] {
        rules.compactMap { $0.validate(text) }
    }

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            if isSecure {
                SecureField(title, text: $text)
            } else {
                TextField(title, text: $text)
                    .textInputAutocapitalization(.never)
            }
            ForEach(messages, id: \.self) { message in
                Text(message)
                    .font(.caption)
                    .foregroundStyle(.red)
            }
        }
        .preference(key: ValidationMessages.self, value: messages)
    }
}

struct SignupForm: View {
    @State private var email = ""
    @State private var password = ""
    @State private var confirmation = ""
    @State private var messages: [String] = []

    private var errorCount: AttributedString {
        AttributedString(localized: "^[\(messages.count) error](inflect: true)")
    }

    var body: some View {
        Form {
            Section("Account") {
                ValidatedField(title: "Email", text: $email, rules: [Required(field: "Email"), EmailAddress()])
                ValidatedField(
                    title: "Password", text: $password, isSecure: true,
                    rules: [Required(field: "Password"), MinimumLength(field: "Password", length: 8), ContainsDigit()])
                ValidatedField(
                    title: "Confirm password", text: $confirmation, isSecure: true, rules: [Matches(other: password)])
            }
            Section {
                Text(errorCount)
                    .fontWeight(.semibold)
                Text(messages.isEmpty ? "Ready to create your account" : "Fix the fields above to continue")
                Button("Create account") {}
                    .disabled(!messages.isEmpty)
            }
        }
        .onPreferenceChange(ValidationMessages.self) { messages = $0 }
    }
}

#Preview {
    SignupForm()
}
