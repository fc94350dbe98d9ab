// canopy: title="Environment and a shared preview context" description="A preview modifier computes a sample library once and puts it into the environment, where every view below reads it. The row density flows down from the list and a nearer override keeps the pinned section compact."
import SwiftUI

// MARK: - Environment

enum RowDensity {
    case compact, regular
}

struct RowDensityKey: EnvironmentKey {
    static let defaultValue = RowDensity.regular
}

struct Book: Identifiable, Equatable {
    let id: Int
    let title: String
    let pages: Int
}

struct Library: Equatable {
    var owner: String
    var books: [Book]
}

struct LibraryKey: EnvironmentKey {
    static let defaultValue = Library(owner: "Nobody", books: [])
}

extension EnvironmentValues {
    var rowDensity: RowDensity {
        get { self[RowDensityKey.self] }
        set { self[RowDensityKey.self] = newValue }
    }

    var library: Library {
        get { self[LibraryKey.self] }
        set { self[LibraryKey.self] = newValue }
    }
}

// MARK: - Preview context

struct SampleLibrary: PreviewModifier {
    static func makeSharedContext() async throws -> Library {
        var books: [Book] = []
        for (index, title) in ["Dune", "Emma", "Middlemarch"].enumerated() {
            books.append(Book(id: index + 1, title: title, pages: 300 + 150 * index))
        }
        return Library(owner: "Preview reader", books: books)
    }

    func body(content: Content, context: Library) -> some View {
        content.environment(\.library, context)
    }
}

// MARK: - Views

struct BookRow: View {
    let book: Book
    @Environment(\.rowDensity) private var density

    var body: some View {
        switch density {
        case .compact:
            Text(book.title)
        case .regular:
            VStack(alignment: .leading) {
                Text(book.title)
                    .font(.headline)
                Text("\(book.pages) pages")
                    .font(.caption)
            }
        }
    }
}

struct OwnerBadge: View {
    @Environment(\.library) private var library

    var body: some View {
        Label("\(library.owner) · \(library.books.count) books", systemImage: "books.vertical")
    }
}

struct LibraryView: View {
    @Environment(\.library) private var library
    @State private var compact = false

    var body: some View {
        NavigationStack {
            List {
                OwnerBadge()
                Toggle("Compact rows", isOn: $compact)
                Section("Books") {
                    ForEach(library.books) { book in
                        BookRow(book: book)
                    }
                }
                Section("Pinned") {
                    if let first = library.books.first {
                        BookRow(book: first)
                    }
                }
                .environment(\.rowDensity, .compact)
            }
            .environment(\.rowDensity, compact ? .compact : .regular)
            .navigationTitle("Library")
        }
    }
}

#Preview(traits: .modifier(SampleLibrary())) {
    LibraryView()
}
