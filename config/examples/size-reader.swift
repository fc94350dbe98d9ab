// canopy: view=SizeReader title="Size reader: a label that says how big a box is" description="A GeometryReader in the box's background sends the box's size up a preference; the label reads it with onPreferenceChange. The stepper widens the box, the layout runs again, the reader sees the new size and the label follows."
import SwiftUI

struct BoxSizeKey: PreferenceKey {
    static var defaultValue: CGSize = .zero
    static func reduce(value: inout CGSize, nextValue: () -> CGSize) {
        value = nextValue()
    }
}

struct SizeReader: View {
    @State private var boxWidth: CGFloat = 120
    @State private var measured: CGSize = .zero

    var body: some View {
        VStack(spacing: 12) {
            Stepper("Width", value: $boxWidth, in: 40...360, step: 40)
            Color.teal
                .frame(width: boxWidth, height: 80)
                .padding(10)
                .background(
                    GeometryReader { proxy in
                        Color.clear.preference(key: BoxSizeKey.self, value: proxy.size)
                    }
                )
            Text("The box is \(Int(measured.width)) × \(Int(measured.height)) points")
        }
        .onPreferenceChange(BoxSizeKey.self) { measured = $0 }
    }
}

#Preview {
    SizeReader()
}
