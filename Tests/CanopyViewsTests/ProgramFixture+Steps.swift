import CanopyCore
import CanopyViews
import Testing

/// Reading a transaction's program steps and the errors of rejected events.
extension ProgramFixture {
    /// The program steps of kind `e` (`action`, `body`, `perform`, `onChange`, `state`) of the last transaction.
    func steps(_ e: String) -> [JSONObject] {
        (last.diff.trace?.events ?? []).compactMap {
            if case .program(let o) = $0.kind, o["e"] == .string(e) { return o }
            return nil
        }
    }

    /// The `perform` steps' readers of the last transaction, in order.
    var performed: [String] { steps("perform").compactMap { $0["reader"]?.string } }

    /// The nodes whose `onChange` closures ran in the last transaction, in order.
    var onChanged: [String] { steps("onChange").compactMap { $0["node"]?.string } }

    /// The code of the error `send` throws, or `nil` when it succeeds.
    mutating func failure(_ node: String?, _ event: String, _ value: JSON? = nil, name: String? = nil) -> ErrorCode? {
        do {
            try send(node, event, value, name: name)
            return nil
        } catch let error as CanopyError {
            return error.code
        } catch {
            return nil
        }
    }

    /// The ids of a node's children.
    func kids(_ id: String) -> [String] { node(id)?.children.map(\.id) ?? [] }
}

/// The error code `body` throws.
func errorCode(_ body: () throws -> Void) -> ErrorCode? {
    do {
        try body()
        return nil
    } catch let error as CanopyError {
        return error.code
    } catch {
        return nil
    }
}
