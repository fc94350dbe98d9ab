import CanopyCore

/// The daemon's entry point for incoming messages: hands a message's bytes to `CanopyCore.JSONParser`, the one
/// definition of valid JSON for Canopy, so messages, stored snapshots and diffs, example files and the CLI accept
/// and reject exactly the same documents. Every failure is `bad_json` with a message saying what and where (byte
/// offset). json-c used to parse messages here, with a pre-scan for what it let through; it was looser than
/// documented (`00`, `1.`, invalid UTF-8 turned into U+FFFD) and 4–5× slower than `JSONParser` (docs/server.md).
public enum JSONBridge {
    /// Parses one complete JSON text (a whole WebSocket message), nesting at most `maxDepth` containers.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) throws(CanopyError) -> JSON {
        try JSONParser.parse(bytes: bytes.bindMemory(to: UInt8.self), maxDepth: maxDepth)
    }

    /// Parses a string (tests, the CLI).
    public static func parse(_ text: String, maxDepth: Int = 64) throws(CanopyError) -> JSON {
        try JSONParser.parse(text, maxDepth: maxDepth)
    }
}
