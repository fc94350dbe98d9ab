import CanopyCore
import Testing

@testable import CanopyWebSocket

/// A session's outgoing queue: updates where only the latest matters (presence) replace the one still waiting.
@Suite struct TransportQueueTests {
    static func message(_ text: String, supersedes: String? = nil) -> OutgoingMessage {
        let m = OutgoingMessage(bytes: Array(text.utf8))
        m.supersedes = supersedes
        return m
    }

    static func drain(_ session: TransportSession) -> [String] {
        var out: [String] = []
        while let m = session.dequeue() { out.append(String(decoding: m.bytes, as: UTF8.self)) }
        return out
    }

    @Test func aWaitingPresenceIsReplacedByTheNextAndTheBytesFollow() {
        // The queue never touches the connection: any non-null pointer stands in for it.
        let session = TransportSession(id: 1, wsi: OpaquePointer(bitPattern: 8)!, writesInPlace: true)
        session.enqueue(Self.message("diff 1"))
        #expect(!session.enqueue(Self.message("clients a", supersedes: "clients:t")))
        session.enqueue(Self.message("diff 2"))
        #expect(session.enqueue(Self.message("clients ab", supersedes: "clients:t")))
        #expect(session.enqueue(Self.message("clients abc", supersedes: "clients:t")))
        #expect(!session.enqueue(Self.message("clients x", supersedes: "clients:u")))  // another tree: its own
        #expect(session.queuedBytes == "diff 1clients abcdiff 2clients x".utf8.count)
        #expect(Self.drain(session) == ["diff 1", "clients abc", "diff 2", "clients x"])
        #expect(session.queuedBytes == 0)
        // Once written, the next one is queued anew.
        #expect(!session.enqueue(Self.message("clients abcd", supersedes: "clients:t")))
        session.dropQueue()
        #expect(!session.isWaiting("clients:t"))
    }
}
