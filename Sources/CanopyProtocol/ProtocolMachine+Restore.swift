import CanopyCore

/// A stored tree rebuilt (latest snapshot + the log after it) and ready to be served: `ProtocolMachine.rebuild` makes
/// it (on any thread), `install` serves it.
public struct RestoredTree: Sendable {
    public let id: String
    let channel: TreeChannel
}

/// A stored tree still being rebuilt off the service thread: listed by `listTrees`; every request naming it waits
/// (`ProtocolMachine+Waiting`) until `install` serves it.
struct LoadingTree {
    let incarnation: Int
    let about: JSONObject
    /// The version it will be served at (its last logged batch).
    let version: Int
}

/// Start-up: stored trees become channels, at once (`restore`) or in the background (`beginLoading`, then
/// `rebuild` off the service thread and `install` on it).
extension ProtocolMachine {
    /// Rebuilds stored trees and serves them. Throws, naming the tree, if a snapshot does not parse or a logged batch
    /// does not apply — a store that does not replay is never served as a partial tree.
    public mutating func restore(_ stored: [TreeRecord], now: Double) throws(CanopyError) {
        for t in stored {
            guard channels[t.id] == nil, loading[t.id] == nil else {
                throw CanopyError(.storageError, "tree \(t.id): stored twice")
            }
            let restored = try Self.rebuild(t, incarnation: takeIncarnation(), configuration: configuration, now: now)
            _ = install(restored, now: now)
        }
    }

    /// Lists `stored` as trees being loaded: from now on requests naming one of them wait until `install` serves it.
    /// Returns the incarnation each must be rebuilt with.
    public mutating func beginLoading(_ stored: [TreeRecord]) throws(CanopyError) -> [Int] {
        var incarnations: [Int] = []
        for t in stored {
            guard channels[t.id] == nil, loading[t.id] == nil else {
                throw CanopyError(.storageError, "tree \(t.id): stored twice")
            }
            // Unreadable `about` text fails the rebuild, which names it; the listing meanwhile shows none.
            let about = (try? JSONParser.parse(bytes: t.about))?.object ?? JSONObject()
            let incarnation = takeIncarnation()
            loading[t.id] = LoadingTree(
                incarnation: incarnation, about: about, version: t.batches.last?.version ?? t.snapshotVersion)
            incarnations.append(incarnation)
        }
        return incarnations
    }

    /// Trees listed by `beginLoading` and not installed yet.
    public var loadingTrees: [String] { loading.keys.sorted() }

    /// Serves a rebuilt tree; if it was loading, the requests that waited for it are handled now, in order.
    public mutating func install(_ restored: RestoredTree, now: Double) -> [ProtocolAction] {
        var channel = restored.channel
        channel.lastSnapshotTime = now
        channel.owned = !configuration.clustered  // a cluster's daemon follows a tree until it takes its lease
        if let program = channel.program { count(previewContextsOf: program) }
        channels[restored.id] = channel
        guard loading.removeValue(forKey: restored.id) != nil else { return [] }
        return resumeWaiting(now: now)
    }

    /// The channel of a stored tree as of its last logged batch; pure and callable on any thread. A program tree's
    /// logged diffs are folded into its stored cells (and source) and the program started once at the last version.
    public static func rebuild(
        _ t: TreeRecord, incarnation: Int, configuration: HubConfiguration, now: Double
    ) throws(CanopyError) -> RestoredTree {
        func failure(_ what: String) -> CanopyError { CanopyError(.storageError, "tree \(t.id): \(what)") }
        var channel: TreeChannel
        let storedProgram: StoredProgram?
        do throws(CanopyError) {
            let snapshot = try SnapshotEncoding.parse(t.snapshot)
            storedProgram = try SnapshotEncoding.program(of: snapshot)
            // A program tree's tree comes from its program below; its stored keys and root are not read back.
            guard t.snapshotVersion >= 0 else { throw CanopyError(.badMessage, "negative version") }
            let tree =
                storedProgram != nil
                ? try Tree(version: t.snapshotVersion)
                : try SnapshotEncoding.tree(
                    of: snapshot, version: t.snapshotVersion, limits: configuration.limits,
                    compiler: configuration.keyCompiler)
            let about = try JSONParser.parse(bytes: t.about).object ?? JSONObject()
            channel = TreeChannel(
                id: t.id, incarnation: incarnation, tree: tree, about: about, phase: .live,
                acksPerClient: configuration.acksPerClient, now: now)
            for a in try SnapshotEncoding.acks(of: snapshot) {
                channel.acks.remember(client: a.client, seq: a.seq, version: a.version)
            }
        } catch {
            throw failure("snapshot \(t.snapshotVersion) is unreadable: \(error.message)")
        }
        channel.base = (t.snapshotVersion, t.snapshot)
        var version = t.snapshotVersion
        for b in t.batches {
            do throws(CanopyError) {
                let json = try JSONParser.parse(bytes: b.diff, maxDepth: 4096)
                guard b.version == version + 1 else { throw CanopyError(.badMessage, "out of order") }
                if storedProgram == nil { _ = try channel.tree.apply(try [Op](json: json["ops"] ?? .null)) }
                version = b.version
                channel.log.append(
                    .init(
                        version: b.version,
                        message: OutgoingMessage(bytes: b.diff, headroom: configuration.headroom), json: json))
                if let seq = b.seq, !b.client.isEmpty {
                    channel.acks.remember(client: b.client, seq: seq, version: b.version)
                }
            } catch {
                throw failure("logged batch \(b.version) does not apply: \(error.message)")
            }
        }
        if let storedProgram {
            do throws(CanopyError) {
                let diffs = channel.log.range(from: t.snapshotVersion + 1, through: version) ?? []
                let start = try restartProgram(
                    storedProgram, diffs: diffs.lazy.map(\.json), version: version, configuration: configuration)
                (channel.tree, channel.program) = (start.tree, start.program)
            } catch {
                throw failure("the program does not start again at version \(version): \(error.message)")
            }
        }
        channel.durableVersion = channel.tree.version
        channel.log.trim(keep: configuration.diffLogLength, anchor: t.snapshotVersion)
        return RestoredTree(id: t.id, channel: channel)
    }
}
