import CLibWebSockets

/// One WebSocket connection as the service loop tracks it: reassembly of incoming fragments, the bounded
/// outgoing queue, a pending close, and the buffer of the last write. Lives on the service thread only.
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
    /// The close frame was handed to lws (`lws_close_reason` and -1 returned); nothing more to do but wait.
    var closeFrameRequested = false
    private(set) var queuedBytes = 0
    private var queue: [OutgoingMessage] = []
    private var queueHead = 0
    /// The bytes handed to the last `lws_write`, behind `LWS_PRE` head-room. With permessage-deflate lws may still
    /// read them until the next writeable callback, so they are replaced only there (or freed with the session).
    private var writeBuffer: UnsafeMutableRawBufferPointer?

    init(id: SessionID, wsi: OpaquePointer) {
        self.id = id
        self.wsi = wsi
    }

    deinit { writeBuffer?.deallocate() }

    var hasQueuedMessages: Bool { queueHead < queue.count }

    func enqueue(_ message: OutgoingMessage) {
        queue.append(message)
        queuedBytes += message.bytes.count
    }

    func dequeue() -> OutgoingMessage? {
        guard queueHead < queue.count else { return nil }
        let message = queue[queueHead]
        queueHead += 1
        queuedBytes -= message.bytes.count
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
        queue = []
        queueHead = 0
        queuedBytes = 0
    }

    /// Copies `message` behind `LWS_PRE` head-room into the write buffer (called from the writeable callback only,
    /// when lws is done with the previous write) and returns the payload's start. A buffer much larger than needed
    /// is given back so one big message does not pin memory for the session's life.
    func prepareWrite(_ message: OutgoingMessage) -> UnsafeMutablePointer<UInt8> {
        let pre = canopy_lws_pre()
        let needed = pre + message.bytes.count
        if let buffer = writeBuffer, buffer.count < needed || (buffer.count > 256 << 10 && needed < buffer.count / 4) {
            buffer.deallocate()
            writeBuffer = nil
        }
        let buffer =
            writeBuffer ?? .allocate(byteCount: max(needed, 4096), alignment: MemoryLayout<UInt64>.alignment)
        writeBuffer = buffer
        let payload = buffer.baseAddress! + pre
        message.bytes.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { payload.copyMemory(from: base, byteCount: bytes.count) }
        }
        return payload.assumingMemoryBound(to: UInt8.self)
    }
}
