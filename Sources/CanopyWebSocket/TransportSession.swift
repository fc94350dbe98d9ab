import CLibWebSockets
import CanopyCore
import CanopySupport

/// One WebSocket connection as an lws loop tracks it (a server session of `ServiceLoop`, or an open connection of
/// `ClientLoop`): reassembly of incoming fragments, the outgoing queue, a pending close, and the buffer of the last
/// write. Lives on the loop's thread only.
final class TransportSession {
    /// A close the session is waiting to send: after the queue is flushed (handler `.close`) or at once (the queue
    /// was dropped: overflow, shutdown).
    struct PendingClose {
        var code: UInt16
        var reason: String
    }

    let id: SessionID
    /// The lws connection; valid until lws reports it closed.
    let wsi: OpaquePointer
    /// Fragments of the message being received.
    var incoming: [UInt8] = []
    var pendingClose: PendingClose?
    /// The close frame was handed to lws (`lws_close_reason`, then -1 returned or `closeNow()`); nothing more to do
    /// but wait.
    var closeFrameRequested = false
    /// A writeable callback found the queue flushed and set the pending close's frame: the owner calls `closeNow()`
    /// once it is out of this connection's callbacks.
    private(set) var closeDue = false
    /// lws has called the connection writeable at least once: its handshake is out, so a message may be written at
    /// once (`canWriteAtOnce`).
    var hasBeenWriteable = false
    /// What ended (or will end) the session, for the server's metrics: the peer, unless the server closed it first.
    var endedBy = DisconnectReason.client
    /// Whether the message being received is text (nil between messages); a server session checks its UTF-8.
    var receivingText: Bool?
    /// The UTF-8 check of the text message being received.
    var utf8 = UTF8Validator()
    /// The peer sent a close frame (lws echoes it, or the server answers it with a protocol error).
    var peerSentClose = false
    /// When the peer was last heard from (a message piece or a pong), in `monotonicNanoseconds()`.
    var lastHeard: UInt64 = 0
    private(set) var queuedBytes = 0
    private var queue: [OutgoingMessage] = []
    private var queueHead = 0
    /// Messages ever dequeued (or dropped): the position of `queue[queueHead]` counted from the session's start.
    private var dequeued = 0
    /// Per `supersedes` key, the position (as `dequeued` counts) of the message with that key still waiting.
    private var waiting: [String: Int] = [:]
    /// A server session writes each message from its shared buffer (`OutgoingMessage.writeInPlace`); a client one
    /// copies it into `writeBuffer` first, since lws masks a client's payload in place.
    private let writesInPlace: Bool
    /// The message whose shared tail is being written, one fragment of up to `fragmentBytes` at a time, and how many
    /// of the tail's bytes are out: a large snapshot goes out over many passes of the loop, between other sessions'
    /// writes, instead of in one `lws_write` that lws would have to buffer.
    private var fragmenting: (message: OutgoingMessage, sent: Int)?
    /// A client session's copy of the last message written, behind `LWS_PRE` head-room. With permessage-deflate lws
    /// may still read it until the next writeable callback, so it is replaced only there (or freed with the session).
    private var writeBuffer: UnsafeMutableRawBufferPointer?

    /// `writesInPlace`: a server session (see `OutgoingMessage`); false for a client connection.
    init(id: SessionID, wsi: OpaquePointer, writesInPlace: Bool) {
        self.id = id
        self.wsi = wsi
        self.writesInPlace = writesInPlace
    }

    deinit { writeBuffer?.deallocate() }

    var hasQueuedMessages: Bool { queueHead < queue.count }

    /// What a RECEIVE callback's piece of a message amounts to.
    enum Received {
        /// More fragments follow (or the session is closing and ignores what it gets).
        case partial
        /// A whole message.
        case message([UInt8])
        /// The message went over the limit: the 1009 close is set; the callback must return -1.
        case tooBig
    }

    /// Appends one fragment (or part of one) and returns the message once it is whole, within `limit` bytes.
    func receive(_ data: UnsafeRawBufferPointer, final: Bool, limit: Int) -> Received {
        if pendingClose != nil || closeFrameRequested { return .partial }
        guard incoming.count + data.count <= limit else {
            closeAtOnce(code: 1009, reason: "message too big")
            return .tooBig
        }
        incoming.append(contentsOf: data)
        guard final else { return .partial }
        defer { incoming = [] }
        return .message(incoming)
    }

    /// Sets the close frame lws sends once the current callback returns -1 (a limit or a protocol violation, found
    /// while receiving): nothing queued is sent, and nothing more is received.
    func closeAtOnce(code: UInt16, reason: String) {
        incoming = []
        pendingClose = .init(code: code, reason: reason)
        closeFrameRequested = true
        setCloseReason(code: code, reason: reason)
    }

    /// What one WRITEABLE callback wrote: whole messages and their payload bytes.
    struct Written {
        var messages = 0
        var bytes = 0
    }

    /// Most messages one WRITEABLE callback writes, so one busy session cannot hold up the others on its loop.
    static let maxMessagesPerWriteable = 64
    /// Bytes of a shared tail in one continuation frame, and how many such frames one callback writes at most: one,
    /// so a pass of the loop that serves ten big snapshots writes 2.5 MB, not 10 (the others wait for the pass).
    static let fragmentBytes = 256 << 10
    static let maxFragmentsPerWriteable = 1

    /// The WRITEABLE callback: writes the next queued message, or sends the pending close once the queue is empty.
    /// Returns what the callback returns.
    func writeNext() -> Int32 {
        var written = Written()
        return writeNext(written: &written)
    }

    /// `writeNext()`, counting what was written in `written`. A server session goes on with the messages after the
    /// first (up to `maxMessagesPerWriteable`) while the socket takes them without lws buffering any: one message
    /// per callback paced a session's output to one per pass of the loop, and under CPU starvation (a pass then
    /// takes seconds) the output fell hopelessly behind what the loop read and evaluated in the same pass.
    func writeNext(written: inout Written) -> Int32 {
        guard !closeFrameRequested else { return 0 }
        if fragmenting != nil { return writeFragments(&written) }
        // A message whose tail is still being encoded waits, and what is queued behind it too (order holds); the
        // encoder's completion wakes the session.
        if queueHead < queue.count, let tail = queue[queueHead].tail, !tail.isReady {
            if !tail.waiters.contains(id) { tail.waiters.append(id) }
            return 0
        }
        guard let first = dequeue() else {
            if let close = pendingClose {
                // The owner has lws send the close frame (`closeNow()`); lws may still call back writeable meanwhile
                // (a writeable request made earlier), which must not close again.
                closeFrameRequested = true
                closeDue = true
                setCloseReason(code: close.code, reason: close.reason)
            }
            return 0
        }
        var message = first
        while true {
            if message.tail != nil { return startFragments(message, &written) }
            let result =
                writesInPlace && message.canWriteInPlace
                ? message.writeInPlace(wsi) : lws_write(wsi, prepareWrite(message), message.count, LWS_WRITE_TEXT)
            guard result >= 0 && Int(result) >= message.count else { return -1 }
            written.messages += 1
            written.bytes += message.count
            // Only in-place writes follow another in the same callback: a copied one reuses `writeBuffer`, which
            // must stay untouched until the next callback. lws reports a socket that buffered part of a write as
            // choked.
            guard writesInPlace, written.messages < Self.maxMessagesPerWriteable, queueHead < queue.count,
                queue[queueHead].canWriteInPlace, queue[queueHead].tail == nil, lws_send_pipe_choked(wsi) == 0,
                let next = dequeue()
            else { break }
            message = next
        }
        if hasQueuedMessages || pendingClose != nil { lws_callback_on_writable(wsi) }
        return 0
    }

    /// Writes the head of a message with a tail as a text frame without FIN, then the tail's first fragments.
    private func startFragments(_ message: OutgoingMessage, _ written: inout Written) -> Int32 {
        let kind = lws_write_protocol(rawValue: LWS_WRITE_TEXT.rawValue | LWS_WRITE_NO_FIN.rawValue)
        let result =
            writesInPlace && message.canWriteInPlace
            ? message.writeInPlace(wsi, protocol: kind) : lws_write(wsi, prepareWrite(message), message.count, kind)
        guard result >= 0 && Int(result) >= message.count else { return -1 }
        written.bytes += message.count
        fragmenting = (message, 0)
        // A copied head's buffer must stay untouched until the next callback: the tail starts there.
        guard writesInPlace, lws_send_pipe_choked(wsi) == 0 else {
            lws_callback_on_writable(wsi)
            return 0
        }
        return writeFragments(&written)
    }

    /// Writes the next fragments of the tail being sent (copied behind head-room: the shared buffer holds no room
    /// for a frame header in the middle), the last one with FIN.
    private func writeFragments(_ written: inout Written) -> Int32 {
        guard let (message, start) = fragmenting, let tail = message.tail else { return 0 }
        var sent = start
        var frames = 0
        while true {
            let n = min(Self.fragmentBytes, tail.count - sent)
            let last = sent + n == tail.count
            let kind = lws_write_protocol(
                rawValue: LWS_WRITE_CONTINUATION.rawValue | (last ? 0 : LWS_WRITE_NO_FIN.rawValue))
            let payload = tail.bytes.withUnsafeBytes { all in
                prepareWrite(UnsafeRawBufferPointer(rebasing: all[sent..<(sent + n)]))
            }
            let result = lws_write(wsi, payload, n, kind)
            guard result >= 0 && Int(result) >= n else { return -1 }
            sent += n
            frames += 1
            written.bytes += n
            if last {
                fragmenting = nil
                written.messages += 1
                // A server session writes its other messages in place: the fragment buffer is not kept for its
                // life (lws has copied whatever the socket did not take).
                if writesInPlace {
                    writeBuffer?.deallocate()
                    writeBuffer = nil
                }
                break
            }
            fragmenting = (message, sent)
            guard writesInPlace, frames < Self.maxFragmentsPerWriteable, lws_send_pipe_choked(wsi) == 0 else { break }
        }
        if fragmenting != nil || hasQueuedMessages || pendingClose != nil { lws_callback_on_writable(wsi) }
        return 0
    }

    /// Whether the message just queued, the only one waiting, can be written at once rather than at the next
    /// writeable callback: a server session whose handshake is out, nothing ahead of the message (queued, being
    /// fragmented, or held by lws from an earlier write), no close under way, and a message written in place. A
    /// writeable request costs a pass of the loop and, on libuv, four `epoll_ctl` calls per message (libuv's
    /// `uv_poll_start` removes and re-adds the descriptor each time lws turns POLLOUT on or off); lws appends to what
    /// it holds and asks for writeable itself when the socket takes only part of a write.
    var canWriteAtOnce: Bool {
        writesInPlace && hasBeenWriteable && queue.count - queueHead == 1 && fragmenting == nil
            && queue[queueHead].canWriteInPlace && queue[queueHead].tail == nil && pendingClose == nil
            && !closeFrameRequested && !peerSentClose && lws_partial_buffered(wsi) == 0
    }

    /// Gives up on a connection whose socket failed a write made outside its own callbacks (inside one, returning
    /// -1 does this): lws drops it at its next timeout check, without a close frame.
    func dropSoon() {
        closeFrameRequested = true
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    /// Marks the session to close at its next writeable callback (after what is queued, unless `dropQueued`), and
    /// lets lws drop it without a close frame if that has not happened within `timeoutSeconds` (a peer that stopped
    /// reading never becomes writeable). The first close asked for wins.
    func requestClose(code: UInt16, reason: String, dropQueued: Bool, timeoutSeconds: Int) {
        guard pendingClose == nil else { return }
        pendingClose = .init(code: code, reason: reason)
        if dropQueued {
            dropQueue()
            fragmenting = nil  // the close frame may come between a message's fragments (RFC 6455 §5.4)
        }
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Int32(clamping: max(1, timeoutSeconds)))
        lws_callback_on_writable(wsi)
    }

    /// Has lws close the connection politely now: it sends the close frame set by `writeNext` and waits for the
    /// peer's. Call outside this connection's own callbacks (the loop's wake-up callback). Returning -1 from the
    /// writeable callback would be the usual way, but lws 4.1.6 built with `_DEBUG` (as Debian's is) closes a
    /// connection a second time right after such a close on libuv ("close_and_handled uv repeat test"), and the
    /// second close drops it before the close frame goes out. lws may report the connection closed before this
    /// returns.
    func closeNow() {
        closeDue = false
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC)
    }

    /// `lws_close_reason` with the reason cut to the 123 bytes a close frame allows, on a character boundary.
    private func setCloseReason(code: UInt16, reason: String) {
        var bytes: [UInt8] = []
        for scalar in reason.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if bytes.count + encoded.count > 123 { break }
            bytes += encoded
        }
        bytes.withUnsafeMutableBufferPointer { buffer in
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), buffer.baseAddress, buffer.count)
        }
    }

    /// The size of the message the next writeable callback writes (0 when none waits).
    var nextMessageBytes: Int { queueHead < queue.count ? queue[queueHead].count : 0 }

    /// Queues `message`. One that `supersedes` a key replaces the message with that key still waiting (not the one
    /// being written), so a slow reader holds at most one of them however many were sent; it returns true then.
    @discardableResult
    func enqueue(_ message: OutgoingMessage) -> Bool {
        if let key = message.supersedes, let position = waiting[key] {
            let index = queueHead + position - dequeued
            queuedBytes += message.count - queue[index].count
            queue[index] = message
            return true
        }
        if let key = message.supersedes { waiting[key] = dequeued + queue.count - queueHead }
        queue.append(message)
        queuedBytes += message.count
        return false
    }

    /// Whether a message that `supersedes` this key waits in the queue (and would be replaced).
    func isWaiting(_ key: String) -> Bool { waiting[key] != nil }

    func dequeue() -> OutgoingMessage? {
        guard queueHead < queue.count else { return nil }
        let message = queue[queueHead]
        queueHead += 1
        dequeued += 1
        if let key = message.supersedes { waiting[key] = nil }
        queuedBytes -= message.count
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: queue.count <= 1024)
            queueHead = 0
        } else if queueHead >= 1024 && queueHead * 2 >= queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return message
    }

    func dropQueue() {
        dequeued += queue.count - queueHead
        queue = []
        queueHead = 0
        queuedBytes = 0
        waiting = [:]
    }

    /// Copies `message` behind `LWS_PRE` head-room into the write buffer (called from the writeable callback only,
    /// when lws is done with the previous write) and returns the payload's start. A buffer much larger than needed
    /// is given back so one big message does not pin memory for the session's life.
    func prepareWrite(_ message: OutgoingMessage) -> UnsafeMutablePointer<UInt8> {
        message.withPayload { prepareWrite($0) }
    }

    /// Copies `bytes` behind `LWS_PRE` head-room into the write buffer and returns where they start (see above).
    func prepareWrite(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutablePointer<UInt8> {
        let pre = canopy_lws_pre()
        let needed = pre + bytes.count
        if let buffer = writeBuffer, buffer.count < needed || (buffer.count > 256 << 10 && needed < buffer.count / 4) {
            buffer.deallocate()
            writeBuffer = nil
        }
        let buffer =
            writeBuffer ?? .allocate(byteCount: max(needed, 4096), alignment: MemoryLayout<UInt64>.alignment)
        writeBuffer = buffer
        let payload = buffer.baseAddress! + pre
        if let base = bytes.baseAddress { payload.copyMemory(from: base, byteCount: bytes.count) }
        return payload.assumingMemoryBound(to: UInt8.self)
    }
}
