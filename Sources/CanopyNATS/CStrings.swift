#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Calls `body` with a C array of C strings (`const char **`) that lives for the call.
func withCStringArray<R, E: Error>(
    _ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) throws(E) -> R
) throws(E) -> R {
    let copies = strings.map { strdup($0) }
    let array = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(copies.count, 1))
    for (index, copy) in copies.enumerated() { array[index] = UnsafePointer(copy) }
    defer {
        array.deallocate()
        for copy in copies { free(copy) }
    }
    return try body(array)
}

/// Calls `body` with a C string for an optional Swift string (NULL for nil), alive for the call.
func withOptionalCString<R, E: Error>(_ string: String?, _ body: (UnsafePointer<CChar>?) throws(E) -> R) throws(E)
    -> R
{
    guard let string else { return try body(nil) }
    let copy = strdup(string)
    defer { free(copy) }
    return try body(copy)
}

/// Milliseconds (nats.c's unit for timeouts) of a duration, at least 1.
func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
}

/// Nanoseconds (JetStream's unit for ages and windows) of a duration.
func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
}
