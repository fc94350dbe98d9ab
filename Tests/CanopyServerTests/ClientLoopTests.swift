import CanopyCore
import Foundation
import Testing

@testable import CanopyServer
@testable import CanopyWebSocket
import CanopyClient
import CanopySupport

/// The libwebsockets client side (`ClientLoop`, `BlockingClient`, `WebSocketURL`) against a real service loop on
/// port 0 (the echo/fan-out/close handler of ServiceLoopTests).
@Suite struct ClientLoopTests {
    // MARK: URLs

    @Test(
        arguments: [
            ("ws://127.0.0.1:7700/ws", "127.0.0.1", 7700, "/ws"),
            ("ws://localhost", "localhost", 7700, "/ws"),
            ("ws://localhost/", "localhost", 7700, "/ws"),
            ("http://127.0.0.1:8080/", "127.0.0.1", 8080, "/ws"),
            ("127.0.0.1:9000", "127.0.0.1", 9000, "/ws"),
            ("ws://[::1]:7701/ws?x=1", "::1", 7701, "/ws?x=1"),
            ("ws://[::1]", "::1", 7700, "/ws"),
        ] as [(String, String, Int, String)])
    func parsesURLs(text: String, host: String, port: Int, path: String) throws {
        let url = try WebSocketURL(parsing: text)
        #expect(url == WebSocketURL(host: host, port: port, path: path))
    }

    @Test(
        arguments: [
            ("wss://example.com/ws", "TLS is not supported"),
            ("https://example.com", "TLS is not supported"),
            ("ftp://host/", "expected ws://"),
            ("ws://:7700/ws", "no host"),
            ("ws://host:0/ws", "port must be"),
            ("ws://host:70000", "port must be"),
            ("ws://host:abc", "port must be"),
            ("ws://[::1/ws", "unclosed ["),
            ("ws://[::1]x", "expected :PORT"),
            ("ws://user@host/", "unexpected characters"),
        ] as [(String, String)])
    func rejectsBadURLs(text: String, expected: String) {
        #expect {
            _ = try WebSocketURL(parsing: text)
        } throws: { error in
            "\(error)".contains(expected) && "\(error)".contains(text)
        }
    }

    @Test func describesURLsSoTheyParseBack() throws {
        for text in ["ws://127.0.0.1:7700/ws", "ws://[::1]:81/x"] {
            let url = try WebSocketURL(parsing: text)
            #expect(url.description == text)
            #expect(try WebSocketURL(parsing: url.description) == url)
        }
    }

    // MARK: Blocking client

    @Test func exchangesMessagesInOrder() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try BlockingClient(url: WebSocketURL(host: "127.0.0.1", port: server.port))
        defer { client.close() }
        for i in 0..<200 { client.send(["n": .int(Int64(i))]) }
        for i in 0..<200 {
            let echoed = try #require(try client.receive(timeout: 5))
            #expect(echoed == ["n": .int(Int64(i))])
        }
        #expect(try client.receive(timeout: 0.05) == nil)
    }

    @Test func reassemblesMessagesFarLargerThanAFragment() throws {
        let server = try TestServer { $0.maxMessageBytes = 8 << 20 }
        defer { server.stop() }
        let client = try BlockingClient(url: WebSocketURL(host: "127.0.0.1", port: server.port))
        defer { client.close() }
        // Sent whole by the client (lws splits it into frames as the socket takes it), fanned back as one message.
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        client.send(bytes: big)
        #expect(try client.receiveBytes(timeout: 10) == big)
        client.send(bytes: Array("fanout:big:5000000".utf8))
        let fanned = try #require(try client.receiveBytes(timeout: 10))
        #expect(fanned.count == 5_000_000)
        #expect(fanned.prefix(4) == Array("big:".utf8)[...])
        #expect(server.handler.receivedSizes == [3 << 20, 18])
    }

    @Test func reportsTheServersCloseCodeAfterTheMessagesBeforeIt() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try BlockingClient(url: WebSocketURL(host: "127.0.0.1", port: server.port))
        defer { client.close() }
        client.send(bytes: Array("close:4001".utf8))
        #expect(try client.receiveBytes(timeout: 5) == Array("closing".utf8))
        #expect {
            _ = try client.receive(timeout: 5)
        } throws: { error in
            "\(error)" == "the server closed the connection (4001: requested)"
        }
    }

    @Test func closesWith1009WhenTheServerSendsMoreThanTheClientsLimit() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try BlockingClient(url: WebSocketURL(host: "127.0.0.1", port: server.port), maxMessageBytes: 1000)
        defer { client.close() }
        client.send(bytes: Array("fanout:x:999".utf8))
        #expect(try client.receiveBytes(timeout: 5)?.count == 999)
        client.send(bytes: Array("fanout:x:5000".utf8))
        #expect {
            _ = try client.receive(timeout: 5)
        } throws: { error in
            "\(error)".contains("1009")
        }
        #expect(eventually { server.handler.closed == [1] })
    }

    @Test func failsClearlyWhenNothingListens() throws {
        // A port that was just free: bind a server, note its port, stop it.
        let gone = try TestServer()
        let port = gone.port
        gone.stop()
        #expect {
            _ = try BlockingClient(url: WebSocketURL(host: "127.0.0.1", port: port), timeout: 5)
        } throws: { error in
            "\(error)".contains("127.0.0.1:\(port)")
        }
    }

    @Test func failsClearlyWhenTheServerRefusesTheUpgrade() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(throws: ClientError.self) {
            _ = try BlockingClient(url: WebSocketURL(host: "127.0.0.1", port: server.port, path: "/not-ws"), timeout: 5)
        }
        #expect(server.handler.opened.isEmpty)
    }

    @Test func closeSends1000AndTheServerSeesTheSessionEnd() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try BlockingClient(url: WebSocketURL(host: "127.0.0.1", port: server.port))
        client.send(bytes: Array("hi".utf8))
        #expect(try client.receiveBytes(timeout: 5) == Array("hi".utf8))
        client.close()
        client.close()  // idempotent
        #expect(eventually { server.handler.closed == [1] })
    }

    // MARK: Many connections on one loop

    @Test(arguments: EventLoopKind.allCases)
    func servesManyConnectionsOnOneThread(eventLoop: EventLoopKind) throws {
        let server = try TestServer()
        defer { server.stop() }
        let count = 300
        let recorder = RecordingClientHandler(echoesExpected: count)
        let loop = try ClientLoop(handler: recorder, eventLoop: eventLoop)
        #expect(loop.eventLoop == eventLoop)
        let url = WebSocketURL(host: "127.0.0.1", port: server.port)
        for _ in 0..<count { loop.connect(url) }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            loop.run()
            done.signal()
        }
        thread.start()
        #expect(recorder.waitForEchoes(seconds: 20))
        #expect(server.handler.opened.count == count)
        loop.stop()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let summary = recorder.summary
        #expect(summary.opened == count)
        #expect(summary.echoes == count)
        #expect(summary.closedCodes == [1000: count])
        #expect(eventually { server.handler.closed.count == count })
    }
}

/// Sends `"ping <id>"` on every open, counts the echoes, records how connections ended.
private final class RecordingClientHandler: ClientHandler, @unchecked Sendable {  // state under `lock`
    private let lock = NSLock()
    private let echoesExpected: Int
    private let allEchoed = DispatchSemaphore(value: 0)
    private var opened = 0
    private var echoes = 0
    private var closedCodes: [UInt16: Int] = [:]
    private var failures: [String] = []

    init(echoesExpected: Int) { self.echoesExpected = echoesExpected }

    var summary: (opened: Int, echoes: Int, closedCodes: [UInt16: Int], failures: [String]) {
        lock.withLock { (opened, echoes, closedCodes, failures) }
    }

    func waitForEchoes(seconds: Double) -> Bool { allEchoed.wait(timeout: .now() + seconds) == .success }

    func handle(_ connection: ConnectionID, _ event: ClientEvent) -> [TransportAction] {
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case .opened:
            opened += 1
            return [.send(connection, OutgoingMessage(bytes: Array("ping \(connection)".utf8)))]
        case .message(let bytes):
            if String(decoding: bytes, as: UTF8.self) == "ping \(connection)" {
                echoes += 1
                if echoes == echoesExpected { allEchoed.signal() }
            }
        case .closed(let code, _):
            closedCodes[code ?? 0, default: 0] += 1
        case .failed(let why):
            failures.append(why)
        }
        return []
    }
}
