import CanopyNATS
import CanopyProtocol

/// The subjects and names cluster mode uses in NATS (docs/cluster.md, "Subjects").
enum ClusterNames {
    /// Every tree's batches, creation and deletion, one subject per tree.
    static let treeStream = "CANOPY_TREES"
    static let treeSubjects = "canopy.tree.>"
    /// Trees' snapshots (the latest per subject is what counts).
    static let snapshotStream = "CANOPY_SNAPSHOTS"
    static let snapshotSubjects = "canopy.snap.>"
    /// Tree leases: key = tree id, value = the owner daemon's name.
    static let leaseBucket = "canopy-owners"

    static func treeSubject(_ id: String) -> String { "canopy.tree." + token(id) }
    static func snapshotSubject(_ id: String) -> String { "canopy.snap." + token(id) }
    /// The owner of a tree answers forwarded batches here (only the owner subscribes).
    static func ownerSubject(_ id: String) -> String { "canopy.owner." + token(id) }

    /// A tree id as one subject token: ids may contain '.', which separates tokens; '~' cannot occur in an id.
    static func token(_ id: String) -> String { id.replacingOccurrences(of: ".", with: "~") }

    /// The tree id of a `canopy.tree.<token>` subject.
    static func treeID(subject: String) -> String? {
        let prefix = "canopy.tree."
        guard subject.hasPrefix(prefix) else { return nil }
        return String(subject.dropFirst(prefix.count)).replacingOccurrences(of: "~", with: ".")
    }
}

/// One message of the tree stream: a machine's write as another daemon reads it back, and who committed it.
struct StreamRecord {
    var write: PersistWrite
    /// The publishing daemon's instance (its name and a number drawn at start).
    var instance: String
    var sequence: UInt64
    /// A creation whose snapshot did not fit in the message: the snapshot stream's sequence of the snapshot's last
    /// message (`ClusterLink.resolved` reads it in).
    var snapshotReference: UInt64?
    /// The message's `Nats-Msg-Id`.
    var msgID: String?

    /// Headers: the kind of write, the tree version (the stream's sequence has gaps across trees), the author.
    enum Header {
        static let kind = "Canopy-Kind"
        static let version = "Canopy-Version"
        static let client = "Canopy-Client"
        static let seq = "Canopy-Seq"
        static let instance = "Canopy-Instance"
        static let aboutBytes = "Canopy-About-Bytes"
        static let snapshot = "Canopy-Snapshot"
    }

    /// The subject, headers and payload `write` is published as. A creation's payload is its `about` text followed
    /// by its version-0 snapshot — or, with `snapshotReference`, by nothing: its snapshot is in the snapshot stream.
    static func message(_ write: PersistWrite, instance: String, snapshotReference: UInt64? = nil)
        -> (subject: String, headers: NATSHeaders, payload: [UInt8])
    {
        var headers = NATSHeaders()
        switch write {
        case .createTree(let id, let about, let snapshot):
            headers.add(Header.kind, "create")
            headers.add(Header.aboutBytes, String(about.count))
            headers.add(Header.instance, instance)
            if let snapshotReference {
                headers.add(Header.snapshot, String(snapshotReference))
                return (ClusterNames.treeSubject(id), headers, about)
            }
            return (ClusterNames.treeSubject(id), headers, about + snapshot)
        case .append(let tree, let version, let client, let seq, let diff):
            headers.add(Header.kind, "batch")
            headers.add(Header.version, String(version))
            headers.add(Header.instance, instance)
            if !client.isEmpty { headers.add(Header.client, HeaderText.escape(client)) }
            if let seq { headers.add(Header.seq, HeaderText.escape(seq)) }
            return (ClusterNames.treeSubject(tree), headers, diff)
        case .deleteTree(let id):
            headers.add(Header.kind, "delete")
            headers.add(Header.instance, instance)
            return (ClusterNames.treeSubject(id), headers, [])
        }
    }

    /// Reads a message of the tree stream; nil (with why) when it is not one of ours.
    static func read(_ m: NATSMessage) -> Result<StreamRecord, StoreFailure> {
        func bad(_ why: String) -> Result<StreamRecord, StoreFailure> {
            .failure(StoreFailure("message \(m.sequence) on \(m.subject): \(why)"))
        }
        guard let id = ClusterNames.treeID(subject: m.subject) else { return bad("not a tree subject") }
        let instance = m.headers[Header.instance] ?? ""
        switch m.headers[Header.kind] {
        case "create":
            guard let n = m.headers[Header.aboutBytes].flatMap(Int.init), n >= 0, n <= m.payload.count else {
                return bad("no valid \(Header.aboutBytes) header")
            }
            let write = PersistWrite.createTree(
                id: id, about: Array(m.payload[..<n]), snapshot: Array(m.payload[n...]))
            var record = StreamRecord(write: write, instance: instance, sequence: m.sequence)
            if let text = m.headers[Header.snapshot] {
                guard let reference = UInt64(text) else { return bad("no valid \(Header.snapshot) header") }
                record.snapshotReference = reference
            }
            record.msgID = m.headers["Nats-Msg-Id"]
            return .success(record)
        case "batch":
            guard let version = m.headers[Header.version].flatMap(Int.init), version > 0 else {
                return bad("no valid \(Header.version) header")
            }
            let write = PersistWrite.append(
                tree: id, version: version, client: m.headers[Header.client].map(HeaderText.unescape) ?? "",
                seq: m.headers[Header.seq].map(HeaderText.unescape),
                diff: m.payload)
            return .success(
                StreamRecord(write: write, instance: instance, sequence: m.sequence, msgID: m.headers["Nats-Msg-Id"]))
        case "delete":
            return .success(
                StreamRecord(
                    write: .deleteTree(id: id), instance: instance, sequence: m.sequence,
                    msgID: m.headers["Nats-Msg-Id"]))
        default:
            return bad("unknown \(Header.kind)")
        }
    }
}

extension PersistWrite {
    /// The tree the write is about.
    var tree: String {
        switch self {
        case .createTree(let id, _, _), .deleteTree(let id): id
        case .append(let tree, _, _, _, _): tree
        }
    }
}

/// Free text (a hello `client` name, a `seq`) in a NATS header value: bytes outside printable ASCII, and '%', as
/// `%XX`, so no line break or other control character reaches the header block.
enum HeaderText {
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if byte >= 0x20 && byte < 0x7F && byte != 0x25 {
                out.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return out
    }

    static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == 0x25, utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
