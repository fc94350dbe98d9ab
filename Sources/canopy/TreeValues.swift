import CanopyCore

/// Reader values and `@State` cells as a client sees them: from a snapshot, then updated by every diff's `changes`
/// and `state`, so each change can say what it replaced.
struct TreeValues {
    /// Reader name → its value (nil: not present).
    private(set) var values: [String: JSON?] = [:]
    /// "node name" → the cell's value.
    private(set) var cells: [String: JSON] = [:]

    /// Starts over from a snapshot's `readers` and `state`.
    mutating func reset(_ snapshot: JSON) {
        values = [:]
        cells = [:]
        for reader in snapshot["readers"]?.array ?? [] { record(reader) }
        for cell in snapshot["state"]?.array ?? [] { recordCell(cell) }
    }

    /// Records `change` and returns what the reader had before (nil if it was unknown).
    @discardableResult
    mutating func record(_ change: JSON) -> JSON?? {
        guard let name = change["reader"]?.string else { return nil }
        let previous = values[name]
        values[name] = change["present"]?.bool == false ? .some(nil) : .some(change["value"] ?? .null)
        return previous
    }

    /// Records a state cell (`{"node","name","value"}` or `"dropped":true`) and returns its previous value, if known.
    @discardableResult
    mutating func recordCell(_ cell: JSON) -> JSON? {
        let key = "\(cell["node"]?.string ?? "?") \(cell["name"]?.string ?? "?")"
        let previous = cells[key]
        cells[key] = cell["dropped"]?.bool == true ? nil : (cell["value"] ?? .null)
        return previous
    }
}
