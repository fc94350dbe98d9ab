import CanopyCore
import Foundation
import Testing

import CanopyClient
@testable import CanopyServer
import CanopySupport
@testable import CanopyWebSocket

#if canImport(Glibc)
    import Glibc
#endif

/// The service loop against real sockets: a loop on port 0 on its own thread, driven by the blocking WebSocket and
/// HTTP clients of TestWebSocketClient.swift, with a handler that echoes, fans out and closes on request.
@Suite struct ServiceLoopTests {
    // MARK: WebSocket sessions

    @Test(arguments: EventLoopKind.allCases)
    func echoesAMessageAndReportsOpenAndClose(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop)
        #expect(server.loop.eventLoop == eventLoop)  // lws's libuv plugin is installed here (scripts/setup.sh)
        defer { server.stop() }
        let client = try TestWebSocket(port: server.port)
        try client.send("hello")
        #expect(try client.next() == .text("hello"))
        #expect(server.handler.opened == [1])
        #expect(server.handler.peers == ["127.0.0.1"])

        try client.sendClose(code: 1000)
        #expect(try client.next() == .close(code: 1000, reason: ""))
        #expect(eventually { server.handler.closed == [1] })
    }

    @Test func acceptsClientsWithoutASubprotocolAndWithCanopyV1() throws {
        let server = try TestServer()
        defer { server.stop() }
        let plain = try TestWebSocket(port: server.port)
        let named = try TestWebSocket(port: server.port, subprotocol: "canopy.v1")
        let listed = try TestWebSocket(port: server.port, subprotocol: "other.v0, canopy.v1")
        #expect(plain.acceptedProtocol == nil)
        #expect(named.acceptedProtocol == "canopy.v1")
        #expect(listed.acceptedProtocol == "canopy.v1")
        for (index, client) in [plain, named, listed].enumerated() {
            try client.send("client \(index)")
            #expect(try client.next() == .text("client \(index)"))
        }
        #expect(server.handler.opened == [1, 2, 3])
    }

    @Test(arguments: [nil, "canopy.v1"])
    func upgradesAKeptAliveHTTPConnection(subprotocol: String?) throws {
        let server = try TestServer()
        defer { server.stop() }
        let socket = try TestSocket(port: server.port)
        for _ in 0..<2 {
            try socket.write(Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            let head = try #require(try socket.read(through: Array("\r\n\r\n".utf8)))
            #expect(String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            #expect(try socket.read(2) == Array("ok".utf8))
        }
        let client = try TestWebSocket(port: server.port, subprotocol: subprotocol, over: socket)
        try client.send("upgraded")
        #expect(try client.next() == .text("upgraded"))
        #expect(server.handler.opened == [1])
    }

    @Test(
        arguments: [
            ("/ws", "chat", 400),  // a subprotocol the server does not speak
            ("/ws", "http-only", 400),  // the name of the HTTP protocol entry
            ("/ws", "http-only, canopy.v1", 400),  // lws would bind the first it knows
            ("/", nil, 404), ("/other", nil, 404), ("/ws/x", nil, 404), ("/healthz", nil, 404),  // upgrades only on /ws
        ] as [(String, String?, Int)])
    func refusesOtherSubprotocolsAndPathsWithAStatus(path: String, subprotocol: String?, status: Int) throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(try TestWebSocket.upgradeStatus(port: server.port, path: path, subprotocol: subprotocol) == status)
        // The server keeps serving, and the query does not matter.
        let client = try TestWebSocket(port: server.port, path: "/ws?client=cli")
        try client.send("still here")
        #expect(try client.next() == .text("still here"))
        #expect(server.handler.opened == [1])
    }

    @Test func browsersMayConnectOnlyFromTheDaemonsOwnPages() throws {
        let server = try TestServer()
        defer { server.stop() }
        let port = server.port
        func status(_ headers: [String: String]) throws -> Int? {
            try TestWebSocket.upgradeStatus(port: port, headers: headers)
        }
        #expect(try status([:]) == 101)  // no Origin: not a browser
        #expect(try status(["Origin": "http://127.0.0.1:\(port)"]) == 101)
        #expect(try status(["Origin": "http://localhost:\(port)", "Host": "localhost:\(port)"]) == 101)
        #expect(try status(["Origin": "http://evil.example"]) == 403)
        #expect(try status(["Origin": "http://127.0.0.1:1"]) == 403)
        #expect(try status(["Origin": "null"]) == 403)
        // DNS rebinding: the page and the Host agree, but the name is not a loopback one (refused for the Host
        // before the Origin is looked at: HostPolicy).
        #expect(try status(["Origin": "http://evil.example:\(port)", "Host": "evil.example:\(port)"]) == 421)

        let open = try TestServer { $0.allowedOrigins = ["http://Tools.Example"] }
        defer { open.stop() }
        #expect(try TestWebSocket.upgradeStatus(port: open.port, headers: ["Origin": "http://tools.example"]) == 101)
        #expect(try TestWebSocket.upgradeStatus(port: open.port, headers: ["Origin": "http://evil.example"]) == 403)
    }

    @Test(arguments: EventLoopKind.allCases)
    func reassemblesMessagesSplitIntoFragments(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop)
        defer { server.stop() }
        let client = try TestWebSocket(port: server.port)
        try client.send("tiny", fragmentSize: 1)
        #expect(try client.next() == .text("tiny"))

        // Exactly the default limit (1 MiB), in 1,000-byte fragments.
        let big = (0..<(1 << 20)).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        try client.send(bytes: big, fragmentSize: 1000)
        #expect(try client.next() == .text(String(decoding: big, as: UTF8.self)))
        #expect(server.handler.receivedSizes == [4, 1 << 20])
    }

    @Test func deliversEmptyMessagesAndMessagesEndingInAnEmptyFragment() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestWebSocket(port: server.port)
        try client.send("")
        #expect(try client.next() == .text(""))
        // "ab" as a text frame, a ping in the middle, then an empty final continuation frame.
        try client.socket.write(
            TestWebSocket.frame(opcode: 1, payload: Array("ab".utf8), final: false)
                + TestWebSocket.frame(opcode: 9, payload: Array("p".utf8), final: true)
                + TestWebSocket.frame(opcode: 0, payload: [], final: true))
        #expect(try client.next() == .text("ab"))
        #expect(server.handler.receivedSizes == [0, 2])
    }

    @Test func treatsBinaryFramesAsText() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestWebSocket(port: server.port)
        try client.send(bytes: Array(#"{"type":"listTrees"}"#.utf8), opcode: 2)
        #expect(try client.next() == .text(#"{"type":"listTrees"}"#))
    }

    @Test(arguments: EventLoopKind.allCases)
    func closesWith1009WhenAMessageIsTooBigAndOthersCarryOn(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop) { $0.maxMessageBytes = 64 << 10 }
        defer { server.stop() }
        let big = try TestWebSocket(port: server.port)
        let other = try TestWebSocket(port: server.port)
        try big.send(bytes: [UInt8](repeating: 0x20, count: 64 << 10), fragmentSize: 4096)
        #expect(try big.next() == .text(String(repeating: " ", count: 64 << 10)))

        try big.send(bytes: [UInt8](repeating: 0x20, count: (64 << 10) + 1), fragmentSize: 4096)
        #expect(try big.next() == .close(code: 1009, reason: "message too big"))
        try big.sendClose(code: 1009)
        #expect(eventually { server.handler.closed == [1] })
        #expect(server.handler.receivedSizes == [64 << 10])

        try other.send("fine")
        #expect(try other.next() == .text("fine"))
    }

    @Test(arguments: EventLoopKind.allCases)
    func closesASlowReaderWith1008WhileOthersKeepReceiving(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop) {
            $0.maxQueueBytes = 256 << 10
            $0.closeTimeoutSeconds = 30
        }
        defer { server.stop() }
        let slow = try TestWebSocket(port: server.port, receiveBuffer: 4096)
        let fast = try TestWebSocket(port: server.port)
        // Every "fanout" sends 64 KiB to every session; the slow client reads none of it.
        let rounds = 200
        for round in 0..<rounds {
            try fast.send("fanout:\(round):65536")
            guard case .text(let copy) = try fast.next(), copy.hasPrefix("\(round):"), copy.utf8.count == 65536 else {
                Issue.record("fast client lost fan-out round \(round)")
                return
            }
        }
        // Reading again: what the sockets held, then the close frame (sent once the socket had room for it).
        let (received, ending) = try slow.skipMessages()
        #expect(ending == .close(code: 1008, reason: "outgoing queue overflow"))
        #expect(received > 0 && received < rounds)
        try slow.sendClose(code: 1008)
        #expect(eventually { server.handler.closed == [1] })

        try fast.send("after")
        #expect(try fast.next() == .text("after"))
    }

    /// Every session is written from the one shared buffer, the frame header in its head-room. Messages much larger
    /// than the sockets take at once (lws keeps the rest) reach every reader intact, in order, with other messages
    /// written from the same buffers in between.
    @Test(arguments: EventLoopKind.allCases)
    func aSharedMessageReachesEveryReaderIntactEvenWhenWritesArePartial(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop)
        defer { server.stop() }
        let readers = try (0..<3).map { _ in try TestWebSocket(port: server.port, receiveBuffer: 4096) }
        #expect(eventually { server.handler.opened.count == 3 })
        let sizes = [1 << 20, 125, 126, 65535, 65536, 300_001]
        for (round, size) in sizes.enumerated() {
            try readers[0].send("pattern:\(round):\(size)")  // one sender keeps the rounds in order
        }
        for (n, reader) in readers.enumerated() {
            for (round, size) in sizes.enumerated() {
                guard case .text(let text) = try reader.next() else {
                    Issue.record("reader \(n): round \(round) was not a text message")
                    return
                }
                let intact = Array(text.utf8) == TestHandler.pattern(round: round, size: size)  // no 1 MiB dump
                #expect(intact, "reader \(n), round \(round): \(text.utf8.count) bytes, expected \(size)")
            }
        }
    }

    /// Messages queued at once leave in a few passes of the loop, not one pass each: with one write per writeable
    /// callback, a loop starved of CPU (each pass taking seconds) sent next to nothing of what it read and answered.
    @Test(arguments: EventLoopKind.allCases)
    func aBurstOfQueuedMessagesLeavesInAFewPassesOfTheLoop(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop)
        defer { server.stop() }
        let client = try BlockingClient(url: WebSocketURL(host: "127.0.0.1", port: server.port))
        defer { client.close() }
        #expect(eventually { server.handler.opened.count == 1 })
        let session = try #require(server.handler.opened.first)
        let count = 1000
        let passes = Locked<[Int]>([])
        let loop = server.loop
        loop.post {
            passes.withLock { $0.append(loop.passes) }
            return (0..<count).map {
                .send(session, OutgoingMessage(bytes: Array("m\($0)".utf8), headroom: webSocketFrameHeadroom))
            }
        }
        var received: [String] = []
        while received.count < count, let bytes = try client.receiveBytes(timeout: 10) {
            received.append(String(decoding: bytes, as: UTF8.self))
        }
        #expect(received == (0..<count).map { "m\($0)" })
        loop.post {
            passes.withLock { $0.append(loop.passes) }
            return []
        }
        #expect(eventually { passes.withLock { $0.count } == 2 })
        let used = passes.withLock { $0.count == 2 ? $0[1] - $0[0] : Int.max }
        // 64 messages a callback at most: 16 passes for the writes, and a few for other wake-ups.
        #expect(used < 100, "\(used) passes of the loop for \(count) messages")
    }

    /// The loop ticks the handler only while it has deferred work, waking itself for that with nothing else going
    /// on; an idle loop is not woken 20 times a second (with many connections each wake polls all of them).
    @Test(arguments: EventLoopKind.allCases)
    func theHandlerIsTickedOnlyWhileItHasDeferredWork(eventLoop: EventLoopKind)
        throws
    {
        let server = try TestServer(eventLoop: eventLoop)
        defer { server.stop() }
        let client = try TestWebSocket(port: server.port)
        try client.send("ping")
        #expect(try client.next() == .text("ping"))
        usleep(300_000)
        #expect(server.handler.ticks == 0)

        let start = Date()
        try client.send("defer:3")
        #expect(try client.next() == .text("ticked"))
        #expect(Date().timeIntervalSince(start) >= 0.09)  // three ticks, 50 ms apart
        usleep(300_000)
        #expect(server.handler.ticks == 3)
    }

    @Test(arguments: EventLoopKind.allCases)
    func aClientThatStopsReadingForGoodIsDroppedAfterAnOverflow(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop) {
            $0.maxQueueBytes = 128 << 10
            $0.closeTimeoutSeconds = 1
        }
        defer { server.stop() }
        let dead = try TestWebSocket(port: server.port, receiveBuffer: 4096)
        let fast = try TestWebSocket(port: server.port)
        var round = 0
        let start = Date()
        // Fan out until the reader that never reads again is closed (its queue overflowed, and its close frame
        // was sent or it timed out); the fast client gets every round meanwhile.
        while server.handler.closed.isEmpty && Date().timeIntervalSince(start) < 15 {
            try fast.send("fanout:\(round):65536")
            guard case .text(let copy) = try fast.next(), copy.hasPrefix("\(round):") else {
                Issue.record("fast client lost fan-out round \(round)")
                return
            }
            round += 1
            if round > 300 { usleep(20_000) }
        }
        #expect(server.handler.closed == [1])
        #expect(Date().timeIntervalSince(start) < 10)
        withExtendedLifetime(dead) {}  // connected and unread throughout
    }

    @Test(arguments: EventLoopKind.allCases)
    func closeActionFlushesWhatWasQueuedBeforeIt(eventLoop: EventLoopKind)
        throws
    {
        let server = try TestServer(eventLoop: eventLoop)
        defer { server.stop() }
        let client = try TestWebSocket(port: server.port)
        try client.send("close:4000")
        #expect(try client.next() == .text("closing"))
        #expect(try client.next() == .close(code: 4000, reason: "requested"))
        try client.sendClose(code: 4000)
        #expect(eventually { server.handler.closed == [1] })
    }

    @Test(arguments: EventLoopKind.allCases)
    func postedJobsRunOnTheServiceThread(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop)
        defer { server.stop() }
        let client = try TestWebSocket(port: server.port)
        try client.send("warm-up")
        _ = try client.next()
        let handler = server.handler
        let posted = Thread {
            server.loop.post {
                handler.recordJobThread()
                return [.send(1, OutgoingMessage(bytes: Array("from another thread".utf8)))]
            }
        }
        posted.start()
        #expect(try client.next() == .text("from another thread"))
        #expect(handler.jobRanOnServiceThread == true)
    }

    @Test(arguments: EventLoopKind.allCases)
    func dropsClientsThatDoNotAnswerPings(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop) {
            $0.pingIntervalSeconds = 1
            $0.idleTimeoutSeconds = 2
        }
        defer { server.stop() }
        let silent = try TestWebSocket(port: server.port)
        silent.answersPings = false
        let lively = try TestWebSocket(port: server.port)
        let start = Date()
        while Date().timeIntervalSince(start) < 3.5 {
            #expect(try lively.next(within: 0.25) == nil)  // pings are answered inside `next`
        }
        #expect(lively.pingsSeen >= 2)
        #expect(eventually { server.handler.closed == [1] })
        #expect(try silent.skipMessages().ending == .end)  // dropped without a close frame
        #expect(silent.pingsSeen >= 1)

        try lively.send("alive")
        #expect(try lively.next() == .text("alive"))
    }

    // MARK: Shutdown

    @Test(arguments: EventLoopKind.allCases)
    func stopClosesEverySessionWith1001AndReturnsFromRun(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop)
        let first = try TestWebSocket(port: server.port)
        let second = try TestWebSocket(port: server.port)
        try first.send("one")
        _ = try first.next()
        try second.send("two")
        _ = try second.next()

        server.loop.stop()
        #expect(try first.next() == .close(code: 1001, reason: "going away"))
        #expect(try second.next() == .close(code: 1001, reason: "going away"))
        try first.sendClose(code: 1001)
        try second.sendClose(code: 1001)
        #expect(server.waitUntilFinished(seconds: 5))
        #expect(server.handler.closed.sorted() == [1, 2])
        #expect(server.loop.teardownProblem == nil)  // libuv: lws's context and the loop were freed
        // Afterwards stop and post are harmless, and the port is closed.
        server.loop.stop()
        server.loop.post { [] }
        #expect(TestSocket.connectionError(host: "127.0.0.1", port: server.port) == ECONNREFUSED)
    }

    @Test(arguments: EventLoopKind.allCases)
    func stopGivesUpOnClientsThatNeverAcknowledgeAfterTheDrainTimeout(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop) { $0.drainTimeoutSeconds = 1 }
        let client = try TestWebSocket(port: server.port, receiveBuffer: 4096)
        try client.send("hi")
        _ = try client.next()
        let start = Date()
        server.loop.stop()  // the client never answers the close frame
        #expect(server.waitUntilFinished(seconds: 5))
        #expect(Date().timeIntervalSince(start) < 3)
        #expect(server.handler.closed == [1])
        #expect(try client.next() == .close(code: 1001, reason: "going away"))
    }

    @Test(arguments: EventLoopKind.allCases)
    func withoutADrainConnectionsAreDroppedWithoutACloseFrame(eventLoop: EventLoopKind) throws {
        // lws_context_destroy sends no close frames: only the drain does.
        let server = try TestServer(eventLoop: eventLoop) { $0.drainTimeoutSeconds = 0 }
        let client = try TestWebSocket(port: server.port)
        server.loop.stop()
        #expect(server.waitUntilFinished(seconds: 5))
        #expect(try client.next() == .end)
        #expect(server.handler.closed == [1])
    }

    @Test(arguments: EventLoopKind.allCases)
    func stopBeforeRunReturnsAtOnce(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop, start: false)
        server.loop.stop()
        server.start()
        #expect(server.waitUntilFinished(seconds: 5))
    }

    // MARK: HTTP

    @Test(arguments: EventLoopKind.allCases)
    func answersHealthz(eventLoop: EventLoopKind) throws {
        let server = try TestServer(eventLoop: eventLoop)
        defer { server.stop() }
        let response = try #require(try TestHTTP.get(port: server.port, path: "/healthz"))
        #expect(response.status == 200)
        #expect(response.text == "ok")
        #expect(response.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(response.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(try TestHTTP.get(port: server.port, path: "/healthz", method: "POST")?.status == 405)
        #expect(try TestHTTP.get(port: server.port, path: "/ws")?.status == 426)
    }

    @Test func withoutAWebRootOnlyHealthzIsServed() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(try TestHTTP.get(port: server.port, path: "/")?.status == 404)
        #expect(try TestHTTP.get(port: server.port, path: "/index.html")?.status == 404)
    }

    @Test(arguments: [
        ("/", "text/html; charset=utf-8", "<!doctype html><title>Canopy</title>"),
        ("/index.html", "text/html; charset=utf-8", "<!doctype html><title>Canopy</title>"),
        ("/app.mjs", "text/javascript; charset=utf-8", "export const answer = 42;\n"),
        ("/lib/util.js", "text/javascript; charset=utf-8", "// util\n"),
        ("/style.css", "text/css; charset=utf-8", "body { margin: 0; }\n"),
        ("/data.json", "application/json", "{\"ok\":true}"),
        ("/icon.svg", "image/svg+xml", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
        ("/app.mjs?v=3", "text/javascript; charset=utf-8", "export const answer = 42;\n"),
    ])
    func servesStaticFilesWithTheirContentTypes(path: String, contentType: String, body: String) throws {
        let site = try TestSite()
        defer { site.remove() }
        let server = try TestServer { $0.webRoot = site.webRoot }
        defer { server.stop() }
        let response = try #require(try TestHTTP.get(port: server.port, path: path))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == contentType)
        #expect(response.headers["x-content-type-options"] == "nosniff")
        #expect(response.text == body)
    }

    @Test func servesALargeFileWhole() throws {
        let site = try TestSite()
        defer { site.remove() }
        let big = Array(String(repeating: "export const x = 0123456789;\n", count: 110_000).utf8)  // 3.2 MB
        try Data(big).write(to: URL(fileURLWithPath: site.webRoot + "/bundle.js"))
        let server = try TestServer { $0.webRoot = site.webRoot }
        defer { server.stop() }
        let response = try #require(try TestHTTP.get(port: server.port, path: "/bundle.js"))
        #expect(response.status == 200)
        #expect(response.headers["content-length"] == String(big.count))
        #expect(response.body == big)
    }

    @Test(arguments: ["/missing.js", "/lib/", "/lib", "/.hidden", "/notes.unknownext"])
    func answers404ForWhatIsNotAServableFile(path: String) throws {
        let site = try TestSite()
        defer { site.remove() }
        let server = try TestServer { $0.webRoot = site.webRoot }
        defer { server.stop() }
        #expect(try TestHTTP.get(port: server.port, path: path)?.status == 404)
    }

    @Test(arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/a/../../secret.txt", "/..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt", "/%252e%252e/secret.txt", "/./../secret.txt", "/lib/../../secret.txt",
        "/../../../../../../etc/passwd", "//etc/passwd", "/escape.txt", "/..\\secret.txt", "/%00/../secret.txt",
        "../secret.txt", "/secret.txt",
    ])
    func neverServesFilesOutsideTheWebRoot(path: String) throws {
        let site = try TestSite()
        defer { site.remove() }
        let server = try TestServer { $0.webRoot = site.webRoot }
        defer { server.stop() }
        let response = try TestHTTP.get(port: server.port, path: path)
        if let response {
            #expect([400, 403, 404].contains(response.status), "status \(response.status) for \(path)")
            #expect(!response.text.contains(TestSite.secret))
            #expect(!response.text.contains("root:"))
        }
        #expect(try TestHTTP.get(port: server.port, path: "/healthz")?.status == 200)
    }

    // MARK: Example trees over HTTP

    @Test func servesAnIndexOfTheExampleTreesSortedByFileWithTreeAndTitle() throws {
        let examples = try TestExamples()
        defer { examples.remove() }
        let server = try TestServer { $0.examplesRoot = examples.root }
        defer { server.stop() }
        let response = try #require(try TestHTTP.get(port: server.port, path: "/examples/index.json"))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["x-content-type-options"] == "nosniff")
        #expect(try JSONParser.parse(bytes: response.body) == TestExamples.index)
    }

    @Test func theExampleIndexFollowsTheDirectoryFromOneRequestToTheNext() throws {
        let examples = try TestExamples()
        defer { examples.remove() }
        let server = try TestServer { $0.examplesRoot = examples.root }
        defer { server.stop() }
        try examples.write("0-first.json", #"{"tree":"first","title":"Added while running"}"#)
        try FileManager.default.removeItem(atPath: examples.root + "/b-navigation.json")
        let response = try #require(try TestHTTP.get(port: server.port, path: "/examples/index.json"))
        let files = try JSONParser.parse(bytes: response.body).array?.compactMap { $0["file"]?.string }
        #expect(
            files == ["0-first.json", "a-laziness.json", "c-untitled.json", "d-signup.swift", "e_BareProgram.swift"])
    }

    @Test func servesAnExampleFileAsJSON() throws {
        let examples = try TestExamples()
        defer { examples.remove() }
        let server = try TestServer { $0.examplesRoot = examples.root }
        defer { server.stop() }
        let response = try #require(try TestHTTP.get(port: server.port, path: "/examples/a-laziness.json"))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.text == TestExamples.laziness)
    }

    @Test func servesAnExampleProgramAsPlainText() throws {
        let examples = try TestExamples()
        defer { examples.remove() }
        let server = try TestServer { $0.examplesRoot = examples.root }
        defer { server.stop() }
        let response = try #require(try TestHTTP.get(port: server.port, path: "/examples/d-signup.swift"))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(response.headers["x-content-type-options"] == "nosniff")
        #expect(response.text == TestExamples.signup)
        // One the index leaves out for its header is still a file of the directory.
        #expect(try TestHTTP.get(port: server.port, path: "/examples/f-bad-header.swift")?.status == 200)
    }

    @Test(arguments: [
        ("/examples/.hidden.json", 404), ("/examples/notes.txt", 404), ("/examples/missing.json", 404),
        ("/examples/sub/deep.json", 404), ("/examples/", 404), ("/examples/escape.json", 403),
        ("/examples/.hidden.swift", 404), ("/examples/missing.swift", 404), ("/examples/sub/deep.swift", 404),
        ("/examples/D-SIGNUP.SWIFT", 404), ("/examples/escape.swift", 403),
    ])
    func refusesWhatIsNotATopLevelExample(path: String, status: Int) throws {
        let examples = try TestExamples()
        defer { examples.remove() }
        let server = try TestServer { $0.examplesRoot = examples.root }
        defer { server.stop() }
        #expect(try TestHTTP.get(port: server.port, path: path)?.status == status)
    }

    @Test(arguments: [
        "/examples/../Package.swift", "/examples/../secret.json", "/examples/%2e%2e/secret.json",
        "/examples/%2E%2E/secret.json", "/examples/..%2fsecret.json", "/examples/%252e%252e/secret.json",
        "/examples/..\\secret.json", "/examples/sub/../../secret.json", "/examples/escape.json",
        "/examples/../secret.swift", "/examples/%2e%2e/secret.swift", "/examples/escape.swift",
    ])
    func neverServesFilesOutsideTheExamplesDirectory(path: String) throws {
        let examples = try TestExamples()
        defer { examples.remove() }
        let site = try TestSite()
        defer { site.remove() }
        let server = try TestServer {
            $0.examplesRoot = examples.root
            $0.webRoot = site.webRoot
        }
        defer { server.stop() }
        let response = try TestHTTP.get(port: server.port, path: path)
        if let response {
            #expect([400, 403, 404].contains(response.status), "status \(response.status) for \(path)")
            #expect(!response.text.contains(TestExamples.secret))
        }
    }

    @Test(arguments: [nil, "/nonexistent/canopy-examples"])
    func withoutAnExamplesDirectoryTheIndexIsEmpty(directory: String?) throws {
        let server = try TestServer { $0.examplesRoot = directory }
        defer { server.stop() }
        let response = try #require(try TestHTTP.get(port: server.port, path: "/examples/index.json"))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.text == "[]")
        #expect(try TestHTTP.get(port: server.port, path: "/examples/a-laziness.json")?.status == 404)
    }

    @Test func theWebRootCannotShadowTheExamples() throws {
        let examples = try TestExamples()
        defer { examples.remove() }
        let site = try TestSite()
        defer { site.remove() }
        try FileManager.default.createDirectory(atPath: site.webRoot + "/examples", withIntermediateDirectories: true)
        try Data("[\"from the web root\"]".utf8).write(to: URL(fileURLWithPath: site.webRoot + "/examples/index.json"))
        let server = try TestServer {
            $0.examplesRoot = examples.root
            $0.webRoot = site.webRoot
        }
        defer { server.stop() }
        let response = try #require(try TestHTTP.get(port: server.port, path: "/examples/index.json"))
        #expect(try JSONParser.parse(bytes: response.body) == TestExamples.index)
        #expect(try TestHTTP.get(port: server.port, path: "/index.html")?.status == 200)
    }

    // MARK: Static file resolution and origin checks, without sockets

    @Test func exampleFilesRefuseTraversalThemselves() throws {
        let examples = try TestExamples()
        defer { examples.remove() }
        let files = ExampleFiles(directory: examples.root + "/sub/..")
        let root = try #require(files.files?.root)
        #expect(
            files.resolve("/examples/a-laziness.json")
                == .file(path: root + "/a-laziness.json", contentType: "application/json"))
        #expect(
            files.resolve("/examples/d-signup.swift")
                == .file(path: root + "/d-signup.swift", contentType: "text/plain; charset=utf-8"))
        #expect(files.resolve("/examples/index.json") == .index(TestExamples.index))
        for path in [
            "/examples/../secret.json", "/examples/%2e%2e/secret.json", "/examples/..\\x.json",
            "/examples/escape.json", "/examples/escape.swift", "/examples/../secret.swift",
        ] {
            #expect(files.resolve(path) == .forbidden, "\(path)")
        }
        for path in [
            "/examples/.hidden.json", "/examples/notes.txt", "/examples/sub/deep.json", "/examples/",
            "/examples/.hidden.swift", "/examples/sub/deep.swift",
        ] {
            #expect(files.resolve(path) == .notFound, "\(path)")
        }
        #expect(ExampleFiles(directory: nil).resolve("/examples/index.json") == .index([]))
        #expect(ExampleFiles(directory: examples.root + "/a-laziness.json").files == nil)
    }

    @Test func staticFilesRefuseTraversalThemselvesWhateverLwsNormalizes() throws {
        let site = try TestSite()
        defer { site.remove() }
        let files = try StaticFiles(webRoot: site.webRoot + "/lib/..")
        let root = files.root
        #expect(!root.hasSuffix("/") && !root.contains(".."))
        #expect(files.resolve("/") == .file(path: root + "/index.html", contentType: "text/html; charset=utf-8"))
        #expect(
            files.resolve("/lib/util.js")
                == .file(path: root + "/lib/util.js", contentType: "text/javascript; charset=utf-8"))
        #expect(files.resolve("/APP.MJS") == .notFound)  // case matters on disk
        for path in [
            "/../secret.txt", "/lib/../../secret.txt", "/./index.html", "/lib/..", "/%2e%2e/secret.txt",
            "/..\\secret.txt", "/a\u{0}b.html", "secret.txt", "", "/escape.txt",
        ] {
            #expect(files.resolve(path) == .forbidden, "\(path)")
        }
        for path in ["/missing.html", "/lib", "/lib/", "/.hidden", "/notes.unknownext", "/lib/.x.js", "/secret.txt"] {
            #expect(files.resolve(path) == .notFound, "\(path)")
        }
        #expect(throws: ServiceLoopError.self) { _ = try StaticFiles(webRoot: site.webRoot + "/index.html") }
    }

    @Test(arguments: [
        ("html", "text/html; charset=utf-8"), ("js", "text/javascript; charset=utf-8"),
        ("mjs", "text/javascript; charset=utf-8"), ("css", "text/css; charset=utf-8"), ("json", "application/json"),
        ("png", "image/png"), ("svg", "image/svg+xml"), ("ico", "image/x-icon"), ("txt", "text/plain; charset=utf-8"),
        ("MJS", "text/javascript; charset=utf-8"),
    ])
    func contentTypesFollowTheExtension(ext: String, contentType: String) {
        #expect(StaticFiles.contentType(forName: "file." + ext) == contentType)
        #expect(StaticFiles.contentType(forName: "." + ext) == nil)
    }

    @Test func originPolicyAllowsNonBrowsersAndTheDaemonsOwnLoopbackPages() {
        let loopback = OriginPolicy(allowedOrigins: [], loopbackOnly: true)
        #expect(loopback.allows(origin: nil, host: "127.0.0.1:7700"))
        #expect(loopback.allows(origin: "http://127.0.0.1:7700", host: "127.0.0.1:7700"))
        #expect(loopback.allows(origin: "http://LOCALHOST:7700/", host: "localhost:7700"))
        #expect(loopback.allows(origin: "http://[::1]:7700", host: "[::1]:7700"))
        #expect(!loopback.allows(origin: "http://127.0.0.1:7701", host: "127.0.0.1:7700"))
        #expect(!loopback.allows(origin: "http://evil.example:7700", host: "evil.example:7700"))
        #expect(!loopback.allows(origin: "http://127.0.0.1.evil.example:7700", host: "127.0.0.1.evil.example:7700"))
        #expect(!loopback.allows(origin: "null", host: "127.0.0.1:7700"))
        #expect(!loopback.allows(origin: "http://127.0.0.1:7700", host: nil))
        let lan = OriginPolicy(allowedOrigins: ["https://tools.example"], loopbackOnly: false)
        #expect(lan.allows(origin: "http://canopy.lan:7700", host: "canopy.lan:7700"))
        #expect(lan.allows(origin: "https://TOOLS.example", host: "canopy.lan:7700"))
        #expect(!lan.allows(origin: "https://other.example", host: "canopy.lan:7700"))
        #expect(OriginPolicy(allowedOrigins: ["*"], loopbackOnly: true).allows(origin: "null", host: nil))
    }

    // MARK: Binding

    @Test func aLoopbackBindListensOnIPv4LoopbackOnly() throws {
        let server = try TestServer()
        defer { server.stop() }
        let listeners = TestListeners.listening(onPort: server.port)
        #expect(listeners == ["127.0.0.1"])
        #expect(TestSocket.connectionError(host: "::1", port: server.port) != nil)
        for address in TestListeners.nonLoopbackIPv4Addresses() {
            #expect(TestSocket.connectionError(host: address, port: server.port) != nil, "reachable on \(address)")
        }
        #expect(TestSocket.connectionError(host: "127.0.0.1", port: server.port) == nil)
    }

    @Test func anIPv4BindListensOnThatAddressOnly() throws {
        guard let address = TestListeners.nonLoopbackIPv4Addresses().first else { return }
        let server = try TestServer { $0.host = address }
        defer { server.stop() }
        #expect(TestListeners.listening(onPort: server.port) == [address])
        #expect(TestSocket.connectionError(host: "127.0.0.1", port: server.port) != nil)
        #expect(TestSocket.connectionError(host: "::1", port: server.port) != nil)
        #expect(TestSocket.connectionError(host: address, port: server.port) == nil)
    }

    @Test func anIPv6LoopbackBindListensOnThatAddressOnly() throws {
        guard TestSocket.connectionError(host: "::1", port: 9) == ECONNREFUSED else { return }  // IPv6 is up
        let server = try TestServer { $0.host = "::1" }
        defer { server.stop() }
        #expect(TestListeners.listening(onPort: server.port) == ["ipv6:00000000000000000000000001000000"])
        #expect(TestSocket.connectionError(host: "127.0.0.1", port: server.port) != nil)
        #expect(TestSocket.connectionError(host: "::1", port: server.port) == nil)
    }

    @Test func aBusyPortIsAnError() throws {
        let server = try TestServer()
        defer { server.stop() }
        var configuration = ServiceConfiguration()
        configuration.port = server.port
        let error = LibWebSocketsLog.expectingFailure {
            #expect(throws: ServiceLoopError.self) {
                _ = try ServiceLoop(configuration: configuration, handler: TestHandler())
            }
        }
        #expect(error?.code == .listenFailed)
    }

    @Test func anAddressThatIsNotLocalIsAnError() throws {
        var configuration = ServiceConfiguration()
        configuration.host = "203.0.113.7"  // TEST-NET-3: on no interface here
        let error = LibWebSocketsLog.expectingFailure {
            #expect(throws: ServiceLoopError.self) {
                _ = try ServiceLoop(configuration: configuration, handler: TestHandler())
            }
        }
        #expect(error?.code == .listenFailed)
    }

    @Test func rejectsInconsistentConfigurations() throws {
        var pings = ServiceConfiguration()
        pings.pingIntervalSeconds = 10
        pings.idleTimeoutSeconds = 10
        #expect(throws: ServiceLoopError.self) {
            _ = try DaemonRoutes(webRoot: "/nonexistent/canopy-web-root", examplesDirectory: nil, runner: nil)
        }
        var size = ServiceConfiguration()
        size.maxMessageBytes = 0
        for configuration in [pings, size] {
            let error = #expect(throws: ServiceLoopError.self) {
                _ = try ServiceLoop(configuration: configuration, handler: TestHandler())
            }
            #expect(error?.code == .invalidConfiguration)
        }
    }
}

// MARK: - Harness

/// Polls `condition` until it holds or `seconds` pass.
func eventually(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

/// A service loop on an ephemeral port, run on its own thread.
/// A test server's transport settings, plus the web root and examples directory its routes serve.
@dynamicMemberLookup
struct TestServerSettings {
    var service = ServiceConfiguration()
    var webRoot: String?
    var examplesRoot: String?

    subscript<T>(dynamicMember path: WritableKeyPath<ServiceConfiguration, T>) -> T {
        get { service[keyPath: path] }
        set { service[keyPath: path] = newValue }
    }
}

final class TestServer: Sendable {
    let loop: ServiceLoop
    let handler: TestHandler
    private let finished = DispatchSemaphore(value: 0)

    init(
        eventLoop: EventLoopKind = ServiceConfiguration().eventLoop, start: Bool = true,
        _ configure: (inout TestServerSettings) -> Void = { _ in }
    ) throws {
        var settings = TestServerSettings()
        settings.port = 0
        settings.eventLoop = eventLoop
        configure(&settings)
        handler = TestHandler()
        // The daemon's own routes (files, examples), as canopyd serves them; /metrics needs a runner, so it is 404.
        let routes = try DaemonRoutes(webRoot: settings.webRoot, examplesDirectory: settings.examplesRoot, runner: nil)
        loop = try ServiceLoop(configuration: settings.service, handler: handler, routes: routes)
        if start { self.start() }
    }

    var port: Int { loop.port }

    func start() {
        let thread = Thread { [loop, handler, finished] in
            handler.setServiceThread()
            loop.run()
            finished.signal()
        }
        thread.start()
    }

    /// Whether `run()` returned within `seconds`.
    func waitUntilFinished(seconds: Double) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }

    func stop() {
        loop.stop()
        _ = waitUntilFinished(seconds: 10)
    }
}

/// Echoes, except `fanout:<tag>:<bytes>` (sends `<tag>:` padded to `<bytes>` to every open session),
/// `pattern:<round>:<bytes>` (sends `pattern(round:size:)` to every open session), `defer:<n>` (has deferred work for
/// `n` ticks, then answers "ticked") and `close:<code>` (replies "closing", then closes with that code). Records what
/// happened for the tests to check.
final class TestHandler: ConnectionHandler, @unchecked Sendable {  // tests read what it records under `lock`
    private let lock = NSLock()
    private var _opened: [SessionID] = []
    private var _peers: [String] = []
    private var _closed: [SessionID] = []
    private var _receivedSizes: [Int] = []
    private var _serviceThread: pthread_t?
    private var _jobThreadMatched: Bool?
    private var open: [SessionID] = []
    private var _ticksWanted = 0
    private var _tickAsker: SessionID = 0
    private var _ticks = 0

    var opened: [SessionID] { lock.withLock { _opened } }
    /// How many times the loop called `tick()`.
    var ticks: Int { lock.withLock { _ticks } }
    var peers: [String] { lock.withLock { _peers } }
    var closed: [SessionID] { lock.withLock { _closed } }
    var receivedSizes: [Int] { lock.withLock { _receivedSizes } }
    var jobRanOnServiceThread: Bool? { lock.withLock { _jobThreadMatched } }

    func setServiceThread() { lock.withLock { _serviceThread = pthread_self() } }

    func recordJobThread() {
        lock.withLock { _jobThreadMatched = _serviceThread.map { pthread_equal($0, pthread_self()) != 0 } }
    }

    func opened(_ session: SessionID, peer: String) -> [TransportAction] {
        lock.withLock {
            _opened.append(session)
            _peers.append(peer)
            open.append(session)
        }
        return []
    }

    func received(_ session: SessionID, message: [UInt8]) -> [TransportAction] {
        let text = String(decoding: message, as: UTF8.self)
        let sessions = lock.withLock {
            _receivedSizes.append(message.count)
            return open
        }
        if text.hasPrefix("fanout:") {
            let parts = text.split(separator: ":")
            let size = Int(parts[2]) ?? 0
            var payload = Array("\(parts[1]):".utf8)
            payload += [UInt8](repeating: UInt8(ascii: "."), count: max(0, size - payload.count))
            let shared = OutgoingMessage(bytes: payload)
            return sessions.map { .send($0, shared) }
        }
        if text.hasPrefix("pattern:") {
            let parts = text.split(separator: ":")
            let shared = OutgoingMessage(bytes: Self.pattern(round: Int(parts[1]) ?? 0, size: Int(parts[2]) ?? 0))
            return sessions.map { .send($0, shared) }
        }
        if text.hasPrefix("defer:"), let count = Int(text.dropFirst(6)) {
            lock.withLock {
                _ticksWanted = count
                _tickAsker = session
            }
            return []
        }
        if text.hasPrefix("close:"), let code = UInt16(text.dropFirst(6)) {
            return [
                .send(session, OutgoingMessage(bytes: Array("closing".utf8))),
                .close(session, code: code, reason: "requested"),
                .send(session, OutgoingMessage(bytes: Array("dropped: after the close".utf8))),
            ]
        }
        return [.send(session, OutgoingMessage(bytes: message))]
    }

    var hasDeferredWork: Bool { lock.withLock { _ticksWanted > 0 } }

    /// Counts the call; the last of the ticks asked for with `defer:<n>` answers "ticked" to whoever asked.
    func tick() -> [TransportAction] {
        let asker: SessionID? = lock.withLock {
            _ticks += 1
            guard _ticksWanted > 0 else { return nil }
            _ticksWanted -= 1
            return _ticksWanted == 0 ? _tickAsker : nil
        }
        return asker.map { [.send($0, OutgoingMessage(bytes: Array("ticked".utf8)))] } ?? []
    }

    /// `size` printable bytes that differ from round to round and along the message.
    static func pattern(round: Int, size: Int) -> [UInt8] {
        (0..<size).map { (i: Int) -> UInt8 in
            let mixed: Int = i &* 31 &+ round &* 7 &+ i / 251
            return UInt8(33 + mixed % 94)
        }
    }

    func closed(_ session: SessionID) -> [TransportAction] {
        lock.withLock {
            _closed.append(session)
            open.removeAll { $0 == session }
        }
        return []
    }
}

/// A temporary web root with a few files, next to a secret file and a symlink out of it.
struct TestSite {
    static let secret = "TOP-SECRET-CANOPY"
    let directory: String
    var webRoot: String { directory + "/web" }

    init() throws {
        directory = NSTemporaryDirectory() + "canopy-site-" + UUID().uuidString
        let files = [
            "web/index.html": "<!doctype html><title>Canopy</title>",
            "web/app.mjs": "export const answer = 42;\n",
            "web/lib/util.js": "// util\n",
            "web/style.css": "body { margin: 0; }\n",
            "web/data.json": "{\"ok\":true}",
            "web/icon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
            "web/.hidden": "hidden",
            "web/notes.unknownext": "notes",
            "secret.txt": Self.secret,
        ]
        let manager = FileManager.default
        for (path, content) in files {
            let url = URL(fileURLWithPath: directory + "/" + path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
        try manager.createSymbolicLink(atPath: webRoot + "/escape.txt", withDestinationPath: directory + "/secret.txt")
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

/// A temporary examples directory: three examples (one without a title), files the index leaves out (broken JSON,
/// no `tree`, hidden, not `.json`, in a subfolder, a symlink out of the directory), next to a secret example.
struct TestExamples {
    static let secret = "TOP-SECRET-EXAMPLE"
    static let laziness = #"{"tree":"laziness","title":"Laziness","keys":[],"root":{"id":"root","type":"Root"}}"#
    static let signup = """
        // canopy: view=SignupForm title="Signup" description="A form." previewModifiers=SampleData,Dark
        struct SignupForm: View { var body: some View { Text("sign up") } }

        """
    static let index: JSON = [
        ["file": "a-laziness.json", "tree": "laziness", "title": "Laziness"],
        ["file": "b-navigation.json", "tree": "navigation", "title": "Navigation overrides"],
        ["file": "c-untitled.json", "tree": "untitled"],
        [
            "file": "d-signup.swift", "tree": "d-signup", "title": "Signup", "program": true, "view": "SignupForm",
            "description": "A form.", "previewModifiers": ["SampleData", "Dark"],
        ],
        ["file": "e_BareProgram.swift", "tree": "e-bare-program", "program": true],
    ]
    let directory: String
    var root: String { directory + "/examples" }

    init() throws {
        directory = NSTemporaryDirectory() + "canopy-examples-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        let files = [
            "a-laziness.json": Self.laziness,
            "b-navigation.json": #"{"tree":"navigation","title":"Navigation overrides"}"#,
            "c-untitled.json": #"{"tree":"untitled","title":""}"#,
            "broken.json": #"{"tree":"broken","#,
            "no-tree.json": #"{"title":"No tree"}"#,
            "array.json": #"["tree"]"#,
            ".hidden.json": #"{"tree":"hidden"}"#,
            "notes.txt": #"{"tree":"notes"}"#,
            "sub/deep.json": #"{"tree":"deep"}"#,
            "../secret.json": #"{"tree":"secret","title":"\#(Self.secret)"}"#,
            "d-signup.swift": Self.signup,
            "e_BareProgram.swift": "struct ContentView: View { var body: some View { Text(\"hi\") } }\n",
            "f-bad-header.swift": "// canopy: colour=red\nstruct ContentView: View {}\n",
            ".hidden.swift": "// canopy: title=Hidden\n",
            "sub/deep.swift": "// canopy: title=Deep\n",
            "../secret.swift": "// canopy: title=\(Self.secret)\n",
        ]
        for (name, content) in files { try write(name, content) }
        try FileManager.default.createSymbolicLink(
            atPath: root + "/escape.json", withDestinationPath: directory + "/secret.json")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/escape.swift", withDestinationPath: directory + "/secret.swift")
    }

    func write(_ name: String, _ content: String) throws {
        try Data(content.utf8).write(to: URL(fileURLWithPath: root + "/" + name))
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

/// Listening sockets as the kernel reports them.
enum TestListeners {
    /// The local addresses of TCP sockets in LISTEN state on `port`, from /proc/net/tcp and /proc/net/tcp6.
    static func listening(onPort port: Int) -> [String] {
        var found: [String] = []
        for (file, isIPv6) in [("/proc/net/tcp", false), ("/proc/net/tcp6", true)] {
            guard let table = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for line in table.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[3] == "0A" else { continue }
                let local = fields[1].split(separator: ":")
                guard local.count == 2, Int(local[1], radix: 16) == port else { continue }
                found.append(isIPv6 ? "ipv6:" + local[0] : ipv4(String(local[0])))
            }
        }
        return found
    }

    private static func ipv4(_ hex: String) -> String {
        guard let value = UInt32(hex, radix: 16) else { return hex }
        // /proc/net/tcp prints the address as a little-endian host integer.
        return [0, 8, 16, 24].map { String((value >> UInt32($0)) & 0xFF) }.joined(separator: ".")
    }

    static func nonLoopbackIPv4Addresses() -> [String] {
        var result: [String] = []
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var cursor = list
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else {
                continue
            }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var addr = inet.pointee.sin_addr
                _ = inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
            }
            let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !string.hasPrefix("127.") { result.append(string) }
        }
        return result
    }
}
