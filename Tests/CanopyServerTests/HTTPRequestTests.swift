import Testing

@testable import CanopyServer
@testable import CanopyWebSocket

/// HTTP on the daemon's port against hostile and unusual requests (issue 12, hole 9): oversized URIs and headers
/// get 414 and 431, `HEAD` works like `GET` without a body, and a loopback-bound daemon answers only loopback (and
/// configured) `Host` names.
@Suite struct HTTPRequestTests {
    @Test func aURIOverTheCapIs414() throws {
        let server = try TestServer()
        defer { server.stop() }
        let cap = Int(LibWebSocketsSetup.uriCap)
        let long = "/" + String(repeating: "a", count: cap + 100)
        #expect(try TestHTTP.get(port: server.port, path: long)?.status == 414)
        #expect(try TestHTTP.get(port: server.port, path: "/healthz?" + String(repeating: "q", count: cap))?.status == 414)
        #expect(try TestWebSocket.upgradeStatus(port: server.port, path: "/ws?" + String(repeating: "q", count: cap)) == 414)
        // Just under the cap is an ordinary request.
        let under = "/healthz?" + String(repeating: "q", count: cap - 20)
        #expect(try TestHTTP.get(port: server.port, path: under)?.status == 200)
    }

    @Test(arguments: ["Cookie", "User-Agent", "Authorization", "Accept"])
    func aHeaderOverTheCapIs431(name: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let cap = Int(LibWebSocketsSetup.headerCap)
        let big = String(repeating: "c", count: cap + 1000)
        #expect(try TestHTTP.get(port: server.port, path: "/healthz", headers: [(name, big)])?.status == 431)
        #expect(try TestWebSocket.upgradeStatus(port: server.port, headers: [name: big]) == 431)
        // 6 KiB was over lws's default header space (4 KiB): now an ordinary request.
        let fine = String(repeating: "c", count: 6 << 10)
        #expect(try TestHTTP.get(port: server.port, path: "/healthz", headers: [(name, fine)])?.status == 200)
        let client = try TestWebSocket(port: server.port)
        try client.send("still serving")
        #expect(try client.next() == .text("still serving"))
    }

    @Test func headAnswersLikeGetWithoutABody() throws {
        let site = try TestSite()
        defer { site.remove() }
        let server = try TestServer { $0.webRoot = site.webRoot }
        defer { server.stop() }
        for path in ["/healthz", "/metrics", "/", "/lib/util.js", "/examples/index.json", "/missing.js"] {
            let get = try #require(try TestHTTP.get(port: server.port, path: path))
            let head = try #require(try TestHTTP.get(port: server.port, path: path, method: "HEAD"))
            #expect(head.status == get.status, "\(path)")
            #expect(head.headers["content-type"] == get.headers["content-type"], "\(path)")
            if path != "/metrics" {  // the metrics change between the two requests
                #expect(head.headers["content-length"] == get.headers["content-length"], "\(path)")
            }
            #expect(head.body.isEmpty, "\(path)")
            #expect(!get.body.isEmpty, "\(path)")
        }
        #expect(try TestHTTP.get(port: server.port, path: "/healthz", method: "POST")?.status == 405)
    }

    /// DNS rebinding: a page on a name the attacker points at 127.0.0.1 is same-origin with the daemon.
    @Test func aLoopbackBindAnswersOnlyLoopbackAndConfiguredHostNames() throws {
        let server = try TestServer { $0.allowedHosts = ["Canopy.Internal", "proxy.example:8443"] }
        defer { server.stop() }
        let port = server.port
        func status(_ path: String, host: String) throws -> Int? {
            try TestHTTP.get(port: port, path: path, headers: [("Host", host)])?.status
        }
        for host in [
            "127.0.0.1", "127.0.0.1:\(port)", "localhost", "LOCALHOST:1", "127.8.9.10:80", "[::1]", "[::1]:\(port)",
            "canopy.internal", "canopy.internal:9", "proxy.example:8443",
        ] {
            #expect(try status("/healthz", host: host) == 200, "\(host)")
        }
        for host in [
            "evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "localhost.evil.example", "[::2]",
            "proxy.example", "proxy.example:80", "128.0.0.1", "0.0.0.0",
        ] {
            #expect(try status("/metrics", host: host) == 421, "\(host)")
            #expect(try status("/healthz", host: host) == 421, "\(host)")
            #expect(try status("/", host: host) == 421, "\(host)")
            #expect(try TestWebSocket.upgradeStatus(port: port, headers: ["Host": host]) == 421, "\(host)")
        }
        #expect(try TestWebSocket.upgradeStatus(port: port, headers: ["Host": "localhost:\(port)"]) == 101)
    }

    @Test func hostPolicyChecksOnlyLoopbackBinds() {
        let loopback = HostPolicy(allowedHosts: [], loopbackOnly: true)
        #expect(loopback.allows(host: nil))  // HTTP/1.0 without Host: not a browser
        #expect(!loopback.allows(host: "evil.example"))
        let everywhere = HostPolicy(allowedHosts: [], loopbackOnly: false)
        #expect(everywhere.allows(host: "evil.example"))
    }
}
