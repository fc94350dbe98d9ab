#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `canopy.reserve`: disk space the store holds back so that a full disk can be cleared while running. A deletion
/// needs room too (SQLite writes the freed pages' bookkeeping to the WAL first), so when the disk is full the writer
/// gives this file up and retries the deletion; the file is filled again once the file system has room for it and
/// as much again. The blocks are allocated (`posix_fallocate`), not just a length set, so the space is really taken.
/// Used by the writer thread only (and by `TreeStore.init` before that thread starts).
final class StoreReserve {
    let path: String
    /// The size the file is kept at (0: no reserve; an existing file is then removed).
    let size: Int
    /// When the writer last checked whether the reserve can be filled again (monotonic nanoseconds).
    private var lastRefillCheck: UInt64 = 0

    init(directory: String, size: Int) {
        path = (directory.isEmpty || directory.hasSuffix("/") ? directory : directory + "/") + "canopy.reserve"
        self.size = max(0, size)
    }

    /// Bytes the file holds now (0 when it is missing).
    var heldBytes: Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Fills the file up to `size` if the file system has room for the missing part and `size` bytes more (so the
    /// store keeps room to work); shrinks a larger one. Returns whether the reserve is whole.
    @discardableResult
    func fill() -> Bool {
        if size == 0 {
            unlink(path)
            return true
        }
        let held = heldBytes
        if held > size { return truncate(path, off_t(size)) == 0 }
        let missing = size - held
        if missing == 0 { return true }
        guard let free = Self.freeBytes(of: path), free >= missing + size else { return false }
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // Allocates the blocks without writing them where the file system can (ext4, xfs, tmpfs); elsewhere glibc
        // writes to every block. Either way the space is taken, not merely promised as by a sparse file's length.
        guard posix_fallocate(fd, off_t(held), off_t(missing)) == 0, fsync(fd) == 0 else {
            // No room after all (someone else took it): give back what this attempt took, keep what was held.
            _ = ftruncate(fd, off_t(held))
            return false
        }
        return true
    }

    /// Gives the space back to the file system. Returns how many bytes the file held.
    @discardableResult
    func release() -> Int {
        let held = heldBytes
        unlink(path)
        return held
    }

    /// After a commit: if the reserve is not whole, tries to fill it, at most once a second.
    func refillIfDue(now: UInt64) {
        guard size > 0, lastRefillCheck == 0 || now &- lastRefillCheck >= 1_000_000_000 else { return }
        lastRefillCheck = now
        if heldBytes < size { fill() }
    }

    /// Bytes an unprivileged process may still allocate on the file system holding `path`'s directory.
    static func freeBytes(of path: String) -> Int? {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var info = statvfs()
        guard statvfs(directory.isEmpty ? "/" : directory, &info) == 0 else { return nil }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }
}
