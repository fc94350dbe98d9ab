// canopy: view=TagFlow title="Tag flow: a Layout of your own" description="A FlowLayout written with the Layout protocol wraps the tags into rows; each tag reports its frame's bottom through a max-reduced key, so the header counts the rows the layout made. Adding tags or narrowing the canvas adds rows."
import SwiftUI

struct FlowLayout: Layout {
    var spacing: CGFloat = 6

    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
        let rows = arrange(subviews, width: proposal.width ?? .infinity)
        let width = rows.map { $0.width }.max() ?? 0
        let height = rows.map { $0.height }.reduce(0, +) + spacing * CGFloat(max(rows.count - 1, 0))
        return CGSize(width: width, height: height)
    }

    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
        var y = bounds.minY
        for row in arrange(subviews, width: bounds.width) {
            var x = bounds.minX
            for index in row.indices {
                let size = subviews[index].sizeThatFits(.unspecified)
                subviews[index].place(at: CGPoint(x: x, y: y), proposal: ProposedViewSize(size))
                x += size.width + spacing
            }
            y += row.height + spacing
        }
    }

    struct Row {
        var indices: [Int] = []
        var width: CGFloat = 0
        var height: CGFloat = 0
    }

    /// The subviews in rows no wider than `width`, each at its ideal size.
    func arrange(_ subviews: Subviews, width: CGFloat) -> [Row] {
        var rows: [Row] = []
        var row = Row()
        for index in subviews.indices {
            let size = subviews[index].sizeThatFits(.unspecified)
            let needed = row.indices.isEmpty ? size.width : row.width + spacing + size.width
            if needed > width, !row.indices.isEmpty {
                rows.append(row)
                row = Row()
            }
            row.width = row.indices.isEmpty ? size.width : row.width + spacing + size.width
            row.height = max(row.height, size.height)
            row.indices.append(index)
        }
        if !row.indices.isEmpty { rows.append(row) }
        return rows
    }
}

struct RowBottomsKey: PreferenceKey {
    static var defaultValue: [CGFloat] = []
    static func reduce(value: inout [CGFloat], nextValue: () -> [CGFloat]) {
        for bottom in nextValue() where !value.contains(bottom) { value.append(bottom) }
    }
}

struct TagFlow: View {
    @State private var tags = ["swift", "layout", "preferences", "geometry", "canopy", "live"]
    @State private var rows = 0
    @State private var draft = ""

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            Text("\(tags.count) tags in \(rows) rows")
                .font(.headline)
            FlowLayout {
                ForEach(tags, id: \.self) { tag in
                    Text(tag)
                        .padding(.horizontal, 10)
                        .padding(.vertical, 4)
                        .background(Capsule().fill(Color.blue.opacity(0.15)))
                        .background(
                            GeometryReader { proxy in
                                Color.clear.preference(
                                    key: RowBottomsKey.self, value: [proxy.frame(in: .named("flow")).maxY])
                            }
                        )
                }
            }
            .coordinateSpace(name: "flow")
            .onPreferenceChange(RowBottomsKey.self) { rows = $0.count }
            HStack {
                TextField("New tag", text: $draft)
                Button("Add") {
                    if !draft.isEmpty && !tags.contains(draft) { tags.append(draft) }
                    draft = ""
                }
            }
        }
        .padding()
    }
}

#Preview {
    TagFlow()
}
