// canopy: view=CheckoutView title="Priority messages from hidden backgrounds" description="Views attach messages with a custom message(_:priority:) modifier that hides its preference in a background rectangle. The banner shows the highest-priority message, and the toggles change which messages are present."
import SwiftUI

enum Priority: Int, Comparable {
    case info, warning, error

    static func < (lhs: Priority, rhs: Priority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

struct Message: Equatable {
    var text: String
    var priority: Priority
}

/// The message with the highest priority; on a tie the first one stays.
struct TopMessage: PreferenceKey {
    static var defaultValue: Message? = nil

    static func reduce(value: inout Message?, nextValue: () -> Message?) {
        guard let next = nextValue() else { return }
        if let current = value, current.priority >= next.priority { return }
        value = next
    }
}

extension View {
    /// Attaches a message without changing how the view looks.
    func message(_ text: String, priority: Priority) -> some View {
        background(
            Rectangle()
                .hidden()
                .preference(key: TopMessage.self, value: Message(text: text, priority: priority))
        )
    }
}

struct ShippingSection: View {
    @Binding var hasAddress: Bool

    var body: some View {
        Section("Shipping") {
            Toggle("Address entered", isOn: $hasAddress)
            if hasAddress {
                Text("Ships tomorrow")
                    .message("Your order ships tomorrow", priority: .info)
            } else {
                Text("No address yet")
                    .message("Add a shipping address", priority: .warning)
            }
        }
    }
}

struct CheckoutView: View {
    @State private var hasAddress = false
    @State private var cardExpired = true
    @State private var top: Message?

    var body: some View {
        VStack(spacing: 12) {
            Text(top?.text ?? "Everything looks good")
                .font(.headline)
                .foregroundStyle(top?.priority == .error ? .red : .primary)
            Form {
                ShippingSection(hasAddress: $hasAddress)
                Section("Payment") {
                    Toggle("Card has expired", isOn: $cardExpired)
                    if cardExpired {
                        Text("Visa ending in 4242")
                            .message("Your card has expired", priority: .error)
                    }
                }
                Section("Extras") {
                    Text("Gift wrapping")
                        .message("Gift wrapping is free this week", priority: .info)
                }
            }
        }
        .onPreferenceChange(TopMessage.self) { top = $0 }
    }
}

#Preview {
    CheckoutView()
}
