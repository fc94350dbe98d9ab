// canopy: view=CollapsingHeader title="Collapsing header: a scroll offset in a named coordinate space" description="Rows scroll under a header. A GeometryReader at the top of the content reports its minY in the ScrollView's coordinate space; the header shrinks from 200 to 60 points as the content scrolls up. Send scroll events to the ScrollView (or scroll it in the inspector's Layout tab)."
import SwiftUI

struct ScrollOffsetKey: PreferenceKey {
    static var defaultValue: CGFloat = 0
    static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) {
        value += nextValue()
    }
}

struct CollapsingHeader: View {
    @State private var offset: CGFloat = 0

    var headerHeight: CGFloat { max(60, 200 + min(0, offset)) }

    var body: some View {
        VStack(spacing: 0) {
            ZStack(alignment: .bottomLeading) {
                Color.indigo
                Text(headerHeight > 100 ? "Field notes" : "Notes")
                    .font(headerHeight > 100 ? .largeTitle : .headline)
                    .padding()
            }
            .frame(height: headerHeight)
            ScrollView {
                VStack(spacing: 8) {
                    GeometryReader { proxy in
                        Color.clear.preference(key: ScrollOffsetKey.self, value: proxy.frame(in: .named("scroll")).minY)
                    }
                    .frame(height: 0)
                    ForEach(1...30, id: \.self) { i in
                        Color.gray.opacity(0.2)
                            .frame(height: 44)
                            .overlay(Text("Entry \(i)"), alignment: .leading)
                    }
                }
                .padding(.horizontal, 16)
            }
            .coordinateSpace(name: "scroll")
            .onPreferenceChange(ScrollOffsetKey.self) { offset = $0 }
        }
    }
}

#Preview {
    CollapsingHeader()
}
