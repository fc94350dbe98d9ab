import CanopyCore

/// `canopy-bench --parse`: JSONParser on a small edit message and a large snapshot, the two inputs
/// docs/server.md ("JSON") compares with json-c. Best of five timed rounds, so other load on the machine shows
/// as slower rounds rather than a slower result.
enum ParseBench {
    static let edit =
        ##"{"type":"edit","tree":"demo","seq":1234,"rid":"r-1234","ops":[{"op":"setProps","id":"n-4711","props":"##
        + ##"{"text":"hello world","color":"#ff8800","width":120.5,"visible":true}}]}"##

    /// A snapshot-like document of `nodes` text nodes with non-ASCII strings, doubles, integers and booleans.
    static func snapshot(nodes: Int) -> String {
        var s = #"{"type":"snapshot","tree":"demo","version":99,"root":{"id":"root","kind":"Stack","props":{"axis":"v"},"children":["#
        for i in 0..<nodes {
            if i > 0 { s += "," }
            s += #"{"id":"n-\#(i)","kind":"Text","props":{"text":"item number \#(i) — ünïcödé","size":"#
            s += #"\#(Double(i) * 0.25 + 10),"weight":\#(i % 900),"visible":\#(i % 2 == 0)},"children":[]}"#
        }
        return s + "]}}"
    }

    static func run() {
        say("canopy-bench --parse — JSONParser.parse(bytes:) (release build, single thread, best of 5 rounds)")
        measure("edit", Array(edit.utf8), iterations: 100_000)
        measure("snapshot 20000 nodes", Array(snapshot(nodes: 20_000).utf8), iterations: 20)
    }

    static func measure(_ name: String, _ bytes: [UInt8], iterations: Int) {
        var best = UInt64.max
        var sink = 0
        for _ in 0..<5 {
            let start = nowNanos()
            for _ in 0..<iterations {
                guard let v = try? JSONParser.parse(bytes: bytes, maxDepth: 4096) else { fatalError("\(name) did not parse") }
                if case .object(let o) = v { sink &+= o.count }
            }
            best = min(best, nowNanos() - start)
        }
        let perParse = Double(best) / Double(iterations)
        let rate = Double(bytes.count) / perParse * 1e3
        say(pad(name, 22, right: false) + pad(String(bytes.count), 9) + " bytes" + pad(fmt(perParse / 1e3, 2), 11)
            + " µs/parse" + pad(fmt(rate, 0), 7) + " MB/s")
        if sink == 42 { say() }  // keeps the parsed values observable, so the loop is not optimised away
    }
}
