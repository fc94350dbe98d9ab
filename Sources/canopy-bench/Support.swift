import CanopyCore
import Glibc

// MARK: Clock

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC; a vDSO call, ~20 ns).
@inline(__always)
func nowNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// CPU time of the calling thread in nanoseconds (a real syscall, ~0.2 us; kept outside the wall-timed region).
@inline(__always)
func threadCPUNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// The 1-minute load average, from /proc/loadavg.
func loadAverage() -> String {
    let fd = open("/proc/loadavg", O_RDONLY)
    guard fd >= 0 else { return "?" }
    defer { close(fd) }
    var buf = [UInt8](repeating: 0, count: 128)
    let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, 127) }
    guard n > 0 else { return "?" }
    return String(decoding: buf[0..<n].split(separator: UInt8(ascii: " ")).first ?? [], as: UTF8.self)
}

func millis(_ ns: UInt64) -> Double { Double(ns) / 1e6 }
func micros(_ ns: UInt64) -> Double { Double(ns) / 1e3 }

// MARK: Random numbers

extension SplitMix64 {
    mutating func int(_ upperBound: Int) -> Int { Int.random(in: 0..<upperBound, using: &self) }
}

// MARK: Memory

enum Memory {
    /// Resident set size in bytes, from /proc/self/statm (second field, in pages).
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return -1 }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 256)
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, 255) }
        guard n > 0 else { return -1 }
        let fields = buf[0..<n].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return -1 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Bytes the allocator has handed out and not got back (mallinfo2: arena chunks in use + mmapped chunks), or
    /// -1 where it cannot be asked. `<malloc.h>` is not part of Swift's Glibc module, so the functions are looked up
    /// with dlsym. `struct mallinfo2` (10 size_t) is returned through a hidden result pointer on x86-64 SysV, which
    /// is passed exactly like a first pointer argument; so the call is made as `void f(struct mallinfo2 *)`.
    static func heapInUse() -> Int {
        #if arch(x86_64)
            guard let f = symbols.mallinfo2 else { return -1 }
            // arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost (on the stack,
            // so the measurement allocates nothing)
            var m: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &m) { f($0.baseAddress!) }
            return m.7 + m.4
        #else
            return -1
        #endif
    }

    /// Returns free heap pages to the kernel so RSS reflects live data.
    static func trim() { _ = symbols.mallocTrim?(0) }

    private struct Symbols: @unchecked Sendable {
        var mallinfo2: (@convention(c) (UnsafeMutableRawPointer) -> Void)?
        var mallocTrim: (@convention(c) (Int) -> Int32)?
    }

    private static let symbols: Symbols = {
        let handle = dlopen(nil, RTLD_NOW)
        var s = Symbols()
        if let p = dlsym(handle, "mallinfo2") {
            s.mallinfo2 = unsafeBitCast(p, to: (@convention(c) (UnsafeMutableRawPointer) -> Void).self)
        }
        if let p = dlsym(handle, "malloc_trim") {
            s.mallocTrim = unsafeBitCast(p, to: (@convention(c) (Int) -> Int32).self)
        }
        return s
    }()

    struct Sample {
        var rss: Int
        var heap: Int
    }

    static func sample(trimFirst: Bool = true) -> Sample {
        if trimFirst { trim() }
        return Sample(rss: residentBytes(), heap: heapInUse())
    }
}

// MARK: Output

/// Prints a line and flushes at once (progress must show up while a 1M build runs).
func say(_ s: String = "") {
    print(s)
    fflush(nil)
}

func writeFile(_ path: String, _ text: String) -> Bool {
    guard let f = fopen(path, "w") else { return false }
    let ok = fputs(text, f) >= 0
    return fclose(f) == 0 && ok
}

/// Fixed-width formatting without Foundation.
func fmt(_ x: Double, _ decimals: Int = 1) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let r = (abs(x) * scale).rounded()
    let whole = Int64(r / scale)
    let frac = Int64(r - Double(whole) * scale)
    var s = (x < 0 && r != 0 ? "-" : "") + String(whole)
    if decimals > 0 {
        var f = String(frac)
        while f.count < decimals { f = "0" + f }
        s += "." + f
    }
    return s
}

func pad(_ s: String, _ width: Int, right: Bool = true) -> String {
    guard s.count < width else { return s }
    let fill = String(repeating: " ", count: width - s.count)
    return right ? fill + s : s + fill
}

func row(_ cells: [(String, Int)], leftFirst: Int = 1) -> String {
    var out = ""
    for (i, (s, w)) in cells.enumerated() {
        out += (i == 0 ? "" : " ") + pad(s, w, right: i >= leftFirst)
    }
    return out
}

// MARK: Statistics

struct Stats {
    var count: Int
    var medianNs: Double
    var p90Ns: Double
    var p99Ns: Double
    var maxNs: Double
    var meanNs: Double
    var minNs: Double

    /// Median (mean of the two middle samples for an even count); p90/p99 by nearest rank.
    init(_ samples: [UInt64]) {
        let s = samples.sorted()
        count = s.count
        guard !s.isEmpty else {
            medianNs = .nan; p90Ns = .nan; p99Ns = .nan; maxNs = .nan; meanNs = .nan; minNs = .nan
            return
        }
        let n = s.count
        medianNs = n % 2 == 1 ? Double(s[n / 2]) : (Double(s[n / 2 - 1]) + Double(s[n / 2])) / 2
        func rank(_ p: Double) -> Double {
            let r = Int((p * Double(n)).rounded(.up))
            return Double(s[Swift.max(0, Swift.min(n - 1, r - 1))])
        }
        p90Ns = rank(0.90)
        p99Ns = rank(0.99)
        maxNs = Double(s[n - 1])
        minNs = Double(s[0])
        var total = 0.0
        for x in s { total += Double(x) }
        meanNs = total / Double(n)
    }
}
