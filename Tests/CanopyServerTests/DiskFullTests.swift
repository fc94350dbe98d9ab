import CanopyCore
import Dispatch
import Foundation
import Testing

@testable import CanopyServer
@testable import CanopyStore
@testable import CanopySupport

/// A really full disk (a small tmpfs mounted for the test), not SQLite's max_page_count: the store must let a
/// `deleteTree` through on the space of its reserve (`canopy.reserve`), take new writes again, and take its reserve
/// back once there is room. Mounting needs root; the tests run as root here and in CI, elsewhere they are skipped.
@Suite(.enabled(if: geteuid() == 0, "mounts a tmpfs, which needs root"))
struct DiskFullTests {
    static let reserve = 6 << 20

    @Test func deleteTreeFreesAFullDiskWhileRunning() throws {
        let disk = try Tmpfs(megabytes: 24)
        defer { disk.unmount() }
        var options = StoreOptions(directory: disk.path)
        options.reserveBytes = Self.reserve
        let store = try TreeStore(options: options)
        defer { store.close() }  // before the unmount (defers run last first)
        #expect(store.reservedBytes == Self.reserve)

        // Fill the disk with trees of ~100 KB, then smaller ones, until even a small write fails for lack of space.
        var trees = 0
        var failure: StoreError?
        for padding in [100_000, 10_000, 100] {
            failure = nil
            while failure == nil && trees < 2000 {
                let tree = StoreWrite.createTree(id: "fill-\(trees)", about: [], snapshot: snapshot(padding: padding))
                switch write(store, tree) {
                case .success: trees += 1
                case .failure(let error): failure = error
                }
            }
        }
        let full = try #require(failure, "24 MiB never filled up")
        #expect(full.kind == .diskFull, "\(full)")
        #expect(trees > 20)
        let refused = write(store, .createTree(id: "small", about: [], snapshot: snapshot(padding: 100)))
        #expect(refused.error?.kind == .diskFull, "writes keep failing while the disk is full")
        #expect(store.reservedBytes == Self.reserve, "ordinary writes never touch the reserve")

        // A deletion goes through (on the reserve's space), and writes are taken again.
        let deleted = write(store, .deleteTree(id: "fill-0"))
        #expect(deleted.error == nil, "\(deleted.error.map { "\($0)" } ?? "")")
        #expect(store.detailedStatistics.reserveReleases == 1)
        try commit(store, .createTree(id: "small", about: [], snapshot: snapshot(padding: 10)))
        for v in 1...20 { try commit(store, .append(tree: "small", diff: diff(v))) }

        // More space freed: the reserve comes back (checked at most once a second, after a commit).
        for i in 1..<trees { try commit(store, .deleteTree(id: "fill-\(i)")) }
        var version = 20
        let deadline = Date().addingTimeInterval(10)
        while store.reservedBytes < Self.reserve && Date() < deadline {
            version += 1
            try commit(store, .append(tree: "small", diff: diff(version)))
        }
        #expect(store.reservedBytes == Self.reserve)
        #expect(try store.load().map(\.id) == ["small"])
    }

    /// The same through the daemon: edits fail with `storage_error` on the full disk, `deleteTree` is answered
    /// `deleted`, and once the protocol's cool-down is over edits are acknowledged again.
    @Test func theDaemonDeletesATreeOnAFullDiskAndTakesEditsAgain() throws {
        let disk = try Tmpfs(megabytes: 24)
        defer { disk.unmount() }
        let daemon = try DurableDaemon(directory: disk.path, reserveBytes: Self.reserve)
        defer { daemon.stop() }  // before the unmount
        let client = try daemon.connect()
        let keys: JSON = [["key": "K", "reducer": "sum", "default": 0]]
        #expect(try client.request(["type": "createTree", "tree": "t", "keys": keys])["type"] == "created")

        // Trees of ~500 KB until one cannot be stored, then edits of ~1.5 KB until one cannot either.
        var fillers = 0
        var reply: JSON = [:]
        repeat {
            reply = try client.request(
                [
                    "type": "createTree", "tree": .string("filler-\(fillers)"),
                    "root": StoreFailureTests.padded("f", 500_000),
                ])
            if reply["type"] == "created" { fillers += 1 }
        } while reply["type"] == "created" && fillers < 200
        #expect(reply["code"] == "storage_error", "\(reply.encoded().prefix(300))")
        var acknowledged = 0
        repeat {
            reply = try client.request(StoreFailureTests.edit(acknowledged + 1))
            if reply["type"] == "diff" { acknowledged += 1 }
        } while reply["type"] == "diff" && acknowledged < 5000
        #expect(reply["code"] == "storage_error", "\(reply.encoded().prefix(300))")
        #expect(reply["message"]?.string?.contains("full") == true, "\(reply.encoded().prefix(300))")

        // The deletion is stored although the disk is full; the space it frees takes edits again.
        let deleted = try client.request(["type": "deleteTree", "tree": "filler-0"])
        #expect(deleted["type"] == "deleted", "\(deleted.encoded().prefix(300))")
        // Edits are refused until the cool-down (2 s here) is over; each refusal is immediate.
        let deadline = Date().addingTimeInterval(15)
        var seq = acknowledged + 1
        repeat {
            if seq > acknowledged + 1 { usleep(20_000) }  // polls the cool-down's end, without spinning
            reply = try client.request(StoreFailureTests.edit(seq))
            seq += 1
        } while reply["type"] != "diff" && reply["code"] == "storage_error" && Date() < deadline
        #expect(reply["type"] == "diff", "\(reply.encoded().prefix(300))")
        #expect(reply["version"] == .int(Int64(acknowledged + 1)))
    }
}

/// A tmpfs of `megabytes` mounted on a fresh temporary directory; `unmount` removes both.
final class Tmpfs {
    let path: String
    private var mounted = false

    init(megabytes: Int) throws {
        path = NSTemporaryDirectory() + "canopy-tmpfs-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(megabytes)m") == 0 else {
            let reason = String(cString: strerror(errno))
            rmdir(path)
            throw StoreError(file: path, message: "cannot mount a tmpfs: \(reason)")
        }
        mounted = true
    }

    func unmount() {
        guard mounted else { return }
        mounted = false
        if umount2(path, 0) != 0 { _ = umount2(path, Int32(MNT_DETACH)) }
        rmdir(path)
    }

    deinit { unmount() }
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

private func snapshot(padding: Int) -> [UInt8] {
    let pad = String(repeating: "p", count: padding)
    return Array(#"{"keys":[],"root":{"id":"root","type":"VStack","props":{"pad":"\#(pad)"}}}"#.utf8)
}

private func diff(_ version: Int) -> StoredDiff {
    let text =
        #"{"type":"diff","version":\#(version),"ops":[{"op":"setProps","node":"root","props":{"x":\#(version)}}]}"#
    return StoredDiff(version: version, client: "", seq: nil, diff: Array(text.utf8))
}
