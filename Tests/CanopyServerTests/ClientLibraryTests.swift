import CanopyClient
import Testing

/// The client library as an app uses it (the example in docs/client.md), against an in-process daemon: connect, say
/// hello, create a tree, subscribe, edit, and read the diff with the reader's new value.
@Suite struct ClientLibraryTests {
    @Test func anAppCreatesSubscribesEditsAndReadsItsDiff() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }

        let client = try BlockingClient(url: WebSocketURL(parsing: "ws://127.0.0.1:\(daemon.port)/ws"))
        defer { client.close() }
        client.send(["type": "hello", "client": "my-app-1"])
        #expect(try client.receive(timeout: 10)?["type"] == "welcome")
        client.send([
            "type": "createTree", "tree": "counter",
            "keys": [["key": "Total", "reducer": "sum", "default": 0]],
            "root": [
                "id": "root", "type": "VStack", "modifiers": [["kind": "onPreferenceChange", "key": "Total"]],
                "children": [["id": "a", "type": "Text"]],
            ],
        ])
        #expect(try client.receive(timeout: 10)?["type"] == "created")
        client.send(["type": "subscribe", "tree": "counter"])
        #expect(try client.receive(timeout: 10)?["type"] == "snapshot")
        client.send([
            "type": "edit", "tree": "counter", "seq": 1,
            "ops": [["op": "setPreference", "node": "a", "key": "Total", "value": 5]],
        ])
        var diff: JSON?
        while diff == nil, let message = try client.receive(timeout: 10) {
            if message["type"] == "diff" { diff = message }
        }
        #expect(diff?["version"] == 1)
        #expect(diff?["changes"]?.array?.first?["value"] == 5)
    }
}
