import CJSONC
import CanopyCore

/// Incoming JSON through json-c, strictly: a nesting limit, UTF-8 validation, and `JSONPreScan` for what json-c
/// lets through. Every failure is `bad_json` with a message saying what and where. json-c objects never leave this
/// file: each parse converts to `JSON` and releases its tree before returning.
public enum JSONBridge {
    /// Parses one complete JSON text (a whole WebSocket message).
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) throws(CanopyError) -> JSON {
        let input = bytes.bindMemory(to: UInt8.self)
        guard !input.isEmpty else { throw CanopyError(.badJSON, "empty message") }
        let scan = try JSONPreScan(input)
        guard let tok = canopy_json_tokener_new(Int32(clamping: maxDepth)) else {
            throw CanopyError(.badJSON, "out of memory creating a JSON tokener")
        }
        defer { json_tokener_free(tok) }
        // json-c needs to see the terminating NUL to finish a number at the very end of the input.
        var terminated = [CChar](repeating: 0, count: input.count + 1)
        terminated.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(input)) }
        let root = terminated.withUnsafeBufferPointer { json_tokener_parse_ex(tok, $0.baseAddress, Int32($0.count)) }
        defer { if root != nil { json_object_put(root) } }
        let status = json_tokener_get_error(tok)
        guard status == json_tokener_success else {
            let offset = json_tokener_get_parse_end(tok)
            if status == json_tokener_error_depth {
                throw CanopyError(.badJSON, "nesting deeper than \(maxDepth) (at offset \(offset))", hitLimit: true)
            }
            let why = String(cString: json_tokener_error_desc(status))
            throw CanopyError(.badJSON, "\(why) (at offset \(offset))")
        }
        // The parse may legitimately stop at the NUL, but nothing else may follow the value.
        guard json_tokener_get_parse_end(tok) >= input.count else {
            throw CanopyError(.badJSON, "unexpected data after the JSON value (at offset \(json_tokener_get_parse_end(tok)))")
        }
        var converter = Converter(expected: scan.objects)
        return try converter.convert(root)
    }

    /// Parses a string (tests, the CLI).
    public static func parse(_ text: String, maxDepth: Int = 64) throws(CanopyError) -> JSON {
        let bytes = Array(text.utf8)
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(CanopyError) -> JSON in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// Converts json-c's tree to `JSON`, visiting objects in document order to compare their member counts with
    /// the keys the pre-scan saw.
    private struct Converter {
        let expected: [(keys: Int, offset: Int)]
        var nextObject = 0

        init(expected: [(keys: Int, offset: Int)]) { self.expected = expected }

        mutating func convert(_ o: OpaquePointer?) throws(CanopyError) -> JSON {
            guard let o else { return .null }
            switch json_object_get_type(o) {
            case json_type_null:
                return .null
            case json_type_boolean:
                return .bool(json_object_get_boolean(o) != 0)
            case json_type_int:
                return .int(json_object_get_int64(o))
            case json_type_double:
                let d = json_object_get_double(o)
                guard d.isFinite else { throw CanopyError(.badJSON, "number is not finite") }
                return .double(d)
            case json_type_string:
                return .string(string(o))
            case json_type_array:
                let n = json_object_array_length(o)
                var items: [JSON] = []
                items.reserveCapacity(n)
                for i in 0..<n { items.append(try convert(json_object_array_get_idx(o, i))) }
                return .array(items)
            case json_type_object:
                let index = nextObject
                nextObject += 1
                let count = Int(json_object_object_length(o))
                if index < expected.count && count < expected[index].keys {
                    throw CanopyError(.badJSON, "duplicate key in the object at offset \(expected[index].offset)")
                }
                var members: [(key: String, value: JSON)] = []
                members.reserveCapacity(count)
                var seen = Set<String>(minimumCapacity: count)
                var it = json_object_iter_begin(o)
                var end = json_object_iter_end(o)
                while json_object_iter_equal(&it, &end) == 0 {
                    let key = String(cString: json_object_iter_peek_name(&it))
                    // Distinct bytes can still be equal Swift strings (canonical equivalence); JSONObject would merge them.
                    guard seen.insert(key).inserted else {
                        throw CanopyError(.badJSON, "duplicate key \"\(key)\" (equal after Unicode normalization)")
                    }
                    members.append((key, try convert(json_object_iter_peek_value(&it))))
                    json_object_iter_next(&it)
                }
                return .object(JSONObject(uniqueMembers: members))
            default:
                throw CanopyError(.badJSON, "unsupported JSON value")
            }
        }

        private func string(_ o: OpaquePointer) -> String {
            let length = Int(json_object_get_string_len(o))
            guard let p = json_object_get_string(o) else { return "" }
            return p.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
        }
    }
}
