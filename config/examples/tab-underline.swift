// canopy: view=TabUnderline title="Tab underline drawn from anchors" description="Each tab publishes the anchor of its bounds with anchorPreference; the bar draws the underline in overlayPreferenceValue, resolving the selected tab's anchor with a GeometryProxy. Tap a tab and the underline moves under it."
import SwiftUI

struct TabBoundsKey: PreferenceKey {
    static var defaultValue: [Int: Anchor<CGRect>] = [:]
    static func reduce(value: inout [Int: Anchor<CGRect>], nextValue: () -> [Int: Anchor<CGRect>]) {
        value.merge(nextValue()) { $1 }
    }
}

struct TabUnderline: View {
    let tabs = ["Inbox", "Starred", "Archive"]
    @State private var selected = 0

    var body: some View {
        VStack(spacing: 24) {
            HStack(spacing: 20) {
                ForEach(0..<3, id: \.self) { i in
                    Button(tabs[i]) { selected = i }
                        .padding(.vertical, 8)
                        .anchorPreference(key: TabBoundsKey.self, value: .bounds) { [i: $0] }
                }
            }
            .overlayPreferenceValue(TabBoundsKey.self) { anchors in
                GeometryReader { proxy in
                    if let anchor = anchors[selected] {
                        let rect = proxy[anchor]
                        Color.accentColor
                            .frame(width: rect.width, height: 3)
                            .offset(x: rect.minX, y: rect.maxY - 3)
                    }
                }
            }
            Text("Showing \(tabs[selected])")
        }
    }
}

#Preview {
    TabUnderline()
}
