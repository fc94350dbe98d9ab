// canopy: view=ControlsGallery title="Controls gallery" description="One of every control a program tree takes events for: a button, text fields with editing, commit and a custom binding, a toggle, a slider, both kinds of stepper. Changes are logged through onChange, and becoming active again is counted through onReceive."
import SwiftUI

struct ControlsGallery: View {
    @State private var taps = 0
    @State private var handle = ""
    @State private var isEditingHandle = false
    @State private var submittedHandle = ""
    @State private var pin = ""
    @State private var pinSubmitted = false
    @State private var notifications = true
    @State private var volume = 5.0
    @State private var isDragging = false
    @State private var quantity = 2
    @State private var rating = 3
    @State private var lastChange = "nothing yet"
    @State private var activations = 0

    /// Handles are stored lower-cased, whatever is typed.
    private var handleBinding: Binding<String> {
        Binding(
            get: { handle },
            set: { handle = $0.lowercased() }
        )
    }

    var body: some View {
        Form {
            Section("Button") {
                Button("Tap me") { taps += 1 }
                Text(AttributedString(localized: "Tapped ^[\(taps) time](inflect: true)"))
            }
            Section("Text") {
                TextField(
                    "Handle", text: handleBinding,
                    onEditingChanged: { editing in isEditingHandle = editing },
                    onCommit: { submittedHandle = handle })
                Text(isEditingHandle ? "Editing…" : "Submitted: \(submittedHandle)")
                SecureField("PIN", text: $pin, onCommit: { pinSubmitted = pin.count == 4 })
                Text(pinSubmitted ? "PIN accepted" : "\(pin.count) of 4 digits")
            }
            Section("Toggle") {
                Toggle("Notifications", isOn: $notifications)
            }
            Section("Slider") {
                Slider(value: $volume, in: 0...10, step: 0.5, onEditingChanged: { dragging in isDragging = dragging })
                Text(isDragging ? "Volume \(volume)…" : "Volume \(volume)")
            }
            Section("Steppers") {
                Stepper("Quantity: \(quantity)", value: $quantity, in: 0...10, step: 2)
                Stepper(
                    "Rating: \(rating)",
                    onIncrement: { rating = min(rating + 1, 5) },
                    onDecrement: { rating = max(rating - 1, 1) })
            }
            Section("Activity") {
                Text("Last change: \(lastChange)")
                Text(AttributedString(localized: "Became active ^[\(activations) time](inflect: true)"))
            }
        }
        .onChange(of: notifications) { _, isOn in
            lastChange = isOn ? "notifications on" : "notifications off"
        }
        .onChange(of: quantity) { oldValue, newValue in
            lastChange = "quantity \(oldValue) → \(newValue)"
        }
        .onReceive(NotificationCenter.default.publisher(for: UIApplication.didBecomeActiveNotification)) { _ in
            activations += 1
        }
    }
}

#Preview {
    ControlsGallery()
}
