import Glibc
import CanopySupport

/// Monotonic time and this process's CPU time.
enum Clock {
    static func now() -> Int64 { Int64(monotonicNanoseconds()) }

    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A non-blocking TCP socket. This and `Poller` hold the file's pointer code.
struct TCPSocket {
    let descriptor: Int32

    /// Connects (blocking, loopback is quick), then switches to non-blocking with Nagle off.
    static func connect(host: String, port: UInt16) throws -> TCPSocket {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RedisLoadError("socket: \(errorText())") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            Glibc.close(descriptor)
            throw RedisLoadError("--host must be an IPv4 address, not \(host)")
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let reason = errorText()
            Glibc.close(descriptor)
            throw RedisLoadError("cannot connect to Redis at \(host):\(port): \(reason)")
        }
        var one: Int32 = 1
        _ = setsockopt(
            descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return TCPSocket(descriptor: descriptor)
    }

    /// Bytes written from `bytes[offset...]`; 0 when the socket would block.
    func write(_ bytes: [UInt8], from offset: Int) throws -> Int {
        let written = bytes.withUnsafeBufferPointer {
            Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
        }
        if written >= 0 { return written }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        throw RedisLoadError("write to Redis: \(Self.errorText())")
    }

    /// Bytes read into `buffer[offset...]`: 0 at end of stream, nil when nothing is there yet.
    func read(into buffer: inout [UInt8], at offset: Int) throws -> Int? {
        let count = buffer.withUnsafeMutableBufferPointer {
            Glibc.read(descriptor, $0.baseAddress! + offset, $0.count - offset)
        }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        throw RedisLoadError("read from Redis: \(Self.errorText())")
    }

    func close() { Glibc.close(descriptor) }

    /// Raises the soft limit on open files towards `count` (within the hard limit): one per connection.
    static func raiseDescriptorLimit(to count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count)
        else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

/// `ppoll(2)` over a fixed set of sockets (nanosecond timeouts; `poll` only has milliseconds, which would add up to a
/// millisecond of lateness to every scheduled publish). Glibc's Swift module does not export `ppoll`, so it is
/// looked up once with `dlsym`.
struct Poller {
    private typealias PPoll =
        @convention(c) (
            UnsafeMutablePointer<pollfd>?, nfds_t, UnsafePointer<timespec>?, UnsafeRawPointer?
        ) -> Int32
    private static let ppoll: PPoll = unsafeBitCast(dlsym(nil, "ppoll")!, to: PPoll.self)

    private var descriptors: [pollfd]
    private var readyCount = 0

    init(sockets: [TCPSocket]) {
        descriptors = sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
    }

    mutating func wantWrite(_ index: Int, _ on: Bool) {
        descriptors[index].events = Int16(POLLIN) | (on ? Int16(POLLOUT) : 0)
    }

    mutating func wait(nanoseconds: Int64) throws {
        var timeout = timespec(
            tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        let count = descriptors.withUnsafeMutableBufferPointer {
            Poller.ppoll($0.baseAddress, nfds_t($0.count), &timeout, nil)
        }
        if count < 0 && errno != EINTR { throw RedisLoadError("ppoll: \(String(cString: strerror(errno)))") }
        readyCount = max(0, Int(count))
    }

    /// Indexes with any event from the last wait.
    func ready() -> [Int] {
        guard readyCount > 0 else { return [] }
        var indexes: [Int] = []
        indexes.reserveCapacity(readyCount)
        for index in descriptors.indices where descriptors[index].revents != 0 { indexes.append(index) }
        return indexes
    }

    func readable(_ index: Int) -> Bool {
        descriptors[index].revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0
    }

    func writable(_ index: Int) -> Bool { descriptors[index].revents & Int16(POLLOUT) != 0 }
}
