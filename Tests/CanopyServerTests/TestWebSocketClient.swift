import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Blocking test clients over plain sockets: a minimal RFC 6455 client (so tests control fragmentation, masking,
// pings and when to stop reading) and a raw HTTP/1.1 GET (so request paths reach the server byte for byte).

struct TestSocketError: Error, CustomStringConvertible {
    var description: String
}

/// A connected TCP socket with a read-ahead buffer and a receive timeout.
final class TestSocket {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host` (an IPv4 or IPv6 literal); `receiveBuffer` shrinks SO_RCVBUF before connecting.
    init(host: String = "127.0.0.1", port: Int, receiveBuffer: Int? = nil, timeout: Double = 5) throws {
        switch TestSocket.connect(host: host, port: port, receiveBuffer: receiveBuffer) {
        case .success(let fd): self.fd = fd
        case .failure(let error): throw TestSocketError(description: "connect: errno \(error.code)")
        }
        setTimeout(timeout)
    }

    deinit { Glibc.close(fd) }

    /// The errno of a refused connection, or nil if it was accepted.
    static func connectionError(host: String, port: Int) -> Int32? {
        switch connect(host: host, port: port, receiveBuffer: nil) {
        case .success(let fd):
            Glibc.close(fd)
            return nil
        case .failure(let error):
            return error.code
        }
    }

    struct Errno: Error { var code: Int32 }

    private static func connect(host: String, port: Int, receiveBuffer: Int?) -> Result<Int32, Errno> {
        let isIPv6 = host.contains(":")
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failure(Errno(code: errno)) }
        if let receiveBuffer {
            var size = Int32(receiveBuffer)
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var status: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        if status != 0 {
            let error = errno
            Glibc.close(fd)
            return .failure(Errno(code: error))
        }
        return .success(fd)
    }

    func setTimeout(_ seconds: Double) {
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TestSocketError(description: "send: errno \(errno)")
            }
            offset += n
        }
    }

    /// Reads at least one more byte into the buffer; false at end of stream. Throws on timeout.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return true
            }
            if n == 0 { return false }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw TestSocketError(description: "timeout") }
            if errno == ECONNRESET { return false }
            throw TestSocketError(description: "recv: errno \(errno)")
        }
    }

    /// Exactly `count` bytes, or nil if the stream ended first.
    func read(_ count: Int) throws -> [UInt8]? {
        while buffer.count < count {
            guard try fill() else { return nil }
        }
        let result = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return result
    }

    /// Bytes up to and including `marker`, or nil if the stream ended first.
    func read(through marker: [UInt8]) throws -> [UInt8]? {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for start in searchFrom...(buffer.count - marker.count)
                where buffer[start..<(start + marker.count)].elementsEqual(marker) {
                    let result = Array(buffer[0..<(start + marker.count)])
                    buffer.removeFirst(start + marker.count)
                    return result
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard try fill() else { return nil }
        }
    }

    /// Everything until the peer closes.
    func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }
}

/// A WebSocket client: handshake, masked frames with chosen fragmentation, reassembly, pongs.
final class TestWebSocket {
    enum Event: Equatable {
        case text(String)
        case close(code: UInt16?, reason: String)
        case end
    }

    let socket: TestSocket
    /// The Sec-WebSocket-Protocol the server chose, if any.
    let acceptedProtocol: String?
    var answersPings = true
    private(set) var pingsSeen = 0
    /// Data frames (text, binary and continuation) received so far: a message sent in fragments counts each.
    private(set) var dataFramesSeen = 0

    /// Connects (or reuses `existing`, a kept-alive HTTP connection) and upgrades; throws with the status if the
    /// server does not switch protocols.
    init(
        port: Int, path: String = "/ws", subprotocol: String? = nil, headers: [String: String] = [:],
        receiveBuffer: Int? = nil, over existing: TestSocket? = nil
    ) throws {
        socket = try existing ?? TestSocket(port: port, receiveBuffer: receiveBuffer)
        guard
            let (status, headers) = try Self.handshake(
                socket, port: port, path: path, subprotocol: subprotocol, headers: headers)
        else {
            throw TestSocketError(description: "handshake: connection closed without a response")
        }
        guard status == 101 else { throw TestSocketError(description: "handshake refused: \(status)") }
        guard headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" else {
            throw TestSocketError(description: "handshake: bad Sec-WebSocket-Accept")
        }
        acceptedProtocol = headers["sec-websocket-protocol"]
    }

    /// The status an upgrade request gets (101 when accepted), or nil if the server drops the connection.
    static func upgradeStatus(
        port: Int, path: String = "/ws", subprotocol: String? = nil, headers: [String: String] = [:]
    ) throws -> Int? {
        let socket = try TestSocket(port: port)
        return try handshake(socket, port: port, path: path, subprotocol: subprotocol, headers: headers)?.status
    }

    private static func handshake(
        _ socket: TestSocket, port: Int, path: String, subprotocol: String?, headers extra: [String: String]
    ) throws -> (status: Int, headers: [String: String])? {
        var request = "GET \(path) HTTP/1.1\r\nHost: \(extra["Host"] ?? "127.0.0.1:\(port)")\r\n"
        request += "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let subprotocol { request += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        for (name, value) in extra.sorted(by: { $0.key < $1.key }) where name != "Host" {
            request += "\(name): \(value)\r\n"
        }
        request += "\r\n"
        try socket.write(Array(request.utf8))
        guard let head = try socket.read(through: Array("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw TestSocketError(description: "bad status line \(lines[0])")
        }
        return (status, TestHTTP.headers(lines.dropFirst()))
    }

    func send(_ text: String, fragmentSize: Int? = nil) throws {
        try send(bytes: Array(text.utf8), fragmentSize: fragmentSize)
    }

    /// Sends one text message, split into frames of `fragmentSize` bytes if given.
    func send(bytes: [UInt8], fragmentSize: Int? = nil, opcode: UInt8 = 1) throws {
        let size = max(1, fragmentSize ?? max(bytes.count, 1))
        var frames: [[UInt8]] = []
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + size)
            frames.append(Array(bytes[offset..<end]))
            offset = end
        } while offset < bytes.count
        var wire: [UInt8] = []
        for (index, payload) in frames.enumerated() {
            wire += Self.frame(
                opcode: index == 0 ? opcode : 0, payload: payload, final: index == frames.count - 1)
            if wire.count >= 1 << 20 {
                try socket.write(wire)
                wire.removeAll(keepingCapacity: true)
            }
        }
        try socket.write(wire)
    }

    func sendClose(code: UInt16 = 1000) throws {
        try socket.write(Self.frame(opcode: 8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)], final: true))
    }

    /// The next message, close or end of stream (pings answered and skipped). Throws on timeout.
    func next() throws -> Event {
        var message: [UInt8] = []
        while true {
            guard let head = try socket.read(2) else { return .end }
            let final = head[0] & 0x80 != 0
            let opcode = head[0] & 0x0F
            var length = Int(head[1] & 0x7F)
            if length == 126 {
                guard let ext = try socket.read(2) else { return .end }
                length = Int(ext[0]) << 8 | Int(ext[1])
            } else if length == 127 {
                guard let ext = try socket.read(8) else { return .end }
                length = ext.reduce(0) { $0 << 8 | Int($1) }
            }
            guard head[1] & 0x80 == 0 else { throw TestSocketError(description: "masked frame from the server") }
            guard let payload = try socket.read(length) else { return .end }
            switch opcode {
            case 0, 1, 2:
                dataFramesSeen += 1
                message += payload
                if final { return .text(String(decoding: message, as: UTF8.self)) }
            case 8:
                let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
                let reason = payload.count > 2 ? String(decoding: payload[2...], as: UTF8.self) : ""
                return .close(code: code, reason: reason)
            case 9:
                pingsSeen += 1
                if answersPings { try socket.write(Self.frame(opcode: 10, payload: payload, final: true)) }
            default:
                continue
            }
        }
    }

    /// Reads past messages to the close or the end of the stream; returns how many messages it skipped.
    func skipMessages() throws -> (count: Int, ending: Event) {
        var count = 0
        while true {
            let event = try next()
            guard case .text = event else { return (count, event) }
            count += 1
        }
    }

    /// The next event, or nil if none came within `seconds`.
    func next(within seconds: Double) throws -> Event? {
        socket.setTimeout(seconds)
        defer { socket.setTimeout(5) }
        do { return try next() } catch let error as TestSocketError where error.description == "timeout" {
            return nil
        }
    }

    /// A masked client frame.
    static func frame(opcode: UInt8, payload: [UInt8], final: Bool) -> [UInt8] {
        var frame: [UInt8] = [(final ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        frame += mask
        frame.reserveCapacity(frame.count + payload.count)
        for (i, byte) in payload.enumerated() { frame.append(byte ^ mask[i & 3]) }
        return frame
    }
}

/// One HTTP/1.1 request with the path sent exactly as given.
enum TestHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// nil if the server closed the connection without answering. `headers` are added to the request (a `Host`
    /// among them replaces `127.0.0.1`). A `HEAD` response's body is whatever came before the server closed.
    static func get(
        port: Int, path: String, method: String = "GET", headers: [(String, String)] = []
    ) throws -> Response? {
        let socket = try TestSocket(port: port)
        let host = headers.contains { $0.0.lowercased() == "host" } ? "" : "Host: 127.0.0.1\r\n"
        let extra = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
        try socket.write(
            Array("\(method) \(path) HTTP/1.1\r\n\(host)\(extra)Connection: close\r\n\r\n".utf8))
        guard let head = try socket.read(through: Array("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw TestSocketError(description: "bad status line \(lines[0])")
        }
        let headers = Self.headers(lines.dropFirst())
        let body: [UInt8]
        if method == "HEAD" {
            body = try socket.readToEnd()
        } else if let length = headers["content-length"].flatMap(Int.init) {
            body = try socket.read(length) ?? []
        } else {
            body = try socket.readToEnd()
        }
        return Response(status: status, headers: headers, body: body)
    }

    static func headers(_ lines: ArraySlice<String>) -> [String: String] {
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }
}
