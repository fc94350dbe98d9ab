// canopy: view=EqualWidthColumns title="Equal-width columns: a width reduced by max" description="Each badge measures its natural width with a GeometryReader; the key keeps the maximum; every badge is then framed to that width, so the column lines up. Adding a longer name widens all of them."
import SwiftUI

struct MaxWidthKey: PreferenceKey {
    static var defaultValue: CGFloat = 0
    static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) {
        value = max(value, nextValue())
    }
}

struct EqualWidthColumns: View {
    @State private var names = ["Ada", "Grace", "Edsger"]
    @State private var columnWidth: CGFloat?

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            ForEach(names, id: \.self) { name in
                Text(name)
                    .padding(.horizontal, 12)
                    .fixedSize()
                    .background(
                        GeometryReader { proxy in
                            Color.clear.preference(key: MaxWidthKey.self, value: proxy.size.width)
                        }
                    )
                    .frame(width: columnWidth, alignment: .leading)
                    .background(Color.yellow.opacity(0.3))
            }
            Button("Add Barbara Liskov") { names.append("Barbara Liskov") }
        }
        .onPreferenceChange(MaxWidthKey.self) { columnWidth = $0 }
    }
}

#Preview {
    EqualWidthColumns()
}
