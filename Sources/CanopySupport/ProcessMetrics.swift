#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `process_*` metrics of the Prometheus client libraries, read from `/proc` (Linux) when asked for. Elsewhere
/// they are left out.
public enum ProcessMetrics {
    /// Appends `process_cpu_seconds_total`, `process_resident_memory_bytes` and `process_start_time_seconds` (each
    /// only if it could be read).
    public static func write(into exposition: inout MetricsExposition) {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let stat = fields(ofStat: contents(of: "/proc/self/stat"))
        // After the command: state is field 3 of proc(5), so field n is stat[n - 3].
        if ticks > 0, stat.count > 12, let user = Double(stat[11]), let system = Double(stat[12]) {
            exposition.counter(
                "process_cpu_seconds_total", "User and system CPU time spent by the process, in seconds.",
                (user + system) / ticks)
        }
        if let statm = contents(of: "/proc/self/statm")?.split(separator: " "), statm.count > 1,
            let pages = Int(statm[1])
        {
            exposition.gauge(
                "process_resident_memory_bytes", "Resident memory of the process, in bytes.",
                pages * Int(sysconf(Int32(_SC_PAGESIZE))))
        }
        if let start = startTime {
            exposition.gauge(
                "process_start_time_seconds", "Start time of the process since the Unix epoch, in seconds.", start)
        }
    }

    /// Boot time (`btime` of /proc/stat) plus the process's start in clock ticks after boot (field 22). Read once.
    static let startTime: Double? = {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let stat = fields(ofStat: contents(of: "/proc/self/stat"))
        guard ticks > 0, stat.count > 19, let started = Double(stat[19]), let boot = contents(of: "/proc/stat") else {
            return nil
        }
        for line in boot.split(separator: "\n") where line.hasPrefix("btime ") {
            guard let seconds = Double(line.dropFirst(6)) else { return nil }
            return seconds + started / ticks
        }
        return nil
    }()

    /// The fields of /proc/self/stat after the command name (which may hold spaces and parentheses).
    private static func fields(ofStat text: String?) -> [Substring] {
        guard let text, let close = text.lastIndex(of: ")") else { return [] }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// A /proc file's text, or nil if it cannot be read or is empty.
    private static func contents(of path: String) -> String? {
        guard let bytes = fileContents(path, limit: 1 << 20), !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
