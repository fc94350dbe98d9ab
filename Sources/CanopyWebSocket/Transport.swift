import CLibWebSockets
import CanopyCore

/// Head-room libwebsockets needs in front of a payload for its frame header (`LWS_PRE`): an `OutgoingMessage` made
/// with at least this much is written to every server session from its one buffer.
public let webSocketFrameHeadroom = Int(canopy_lws_pre())

extension OutgoingMessage {
    /// Whether a server session can write this message in place (see `writeInPlace`).
    var canWriteInPlace: Bool { headroom >= webSocketFrameHeadroom }

    /// `lws_write` of the payload as one text message, the frame header written into the head-room in place: the
    /// header is the same for every session (a server does not mask and uses no extension), and lws copies whatever
    /// a socket does not take at once. Server sessions only, on the service thread; needs `canWriteInPlace`.
    func writeInPlace(_ wsi: OpaquePointer) -> Int32 {
        writeInPlace(wsi, protocol: LWS_WRITE_TEXT)
    }

    /// `writeInPlace` with the frame kind and flags given (the first fragment of a message with a tail is a text
    /// frame without FIN).
    func writeInPlace(_ wsi: OpaquePointer, protocol kind: lws_write_protocol) -> Int32 {
        let length = count
        let offset = headroom
        return framed.withUnsafeMutableBufferPointer { buffer in
            lws_write(wsi, buffer.baseAddress! + offset, length, kind)
        }
    }
}

/// What the protocol layer asks the transport to do, in order.
public enum TransportAction: Sendable {
    /// Queue a message to a session (bounded per session; overflow closes it with 1008).
    case send(SessionID, OutgoingMessage)
    /// Send a close frame with this code and reason, then drop the session.
    case close(SessionID, code: UInt16, reason: String)
    /// These sessions' queues hold a message whose shared tail has just become ready: write again.
    case wake([SessionID])
}

/// The protocol layer as the transport sees it. Every call happens on the service thread, one at a time.
public protocol ConnectionHandler: AnyObject {
    /// A WebSocket connection was established on `/ws`.
    func opened(_ session: SessionID, peer: String) -> [TransportAction]
    /// One complete message (reassembled from its fragments, within the size limit).
    func received(_ session: SessionID, message: [UInt8]) -> [TransportAction]
    /// The connection is gone (closed by either side, timed out, or dropped by the transport).
    func closed(_ session: SessionID) -> [TransportAction]
    /// Whether the handler deferred work that `tick()` will do. The loop ticks only while this is true, so an idle
    /// daemon does not wake (and poll every connection) 20 times a second for nothing.
    var hasDeferredWork: Bool { get }
    /// Called on the service thread about every 50 ms while `hasDeferredWork`: for work the handler deferred
    /// (coalesced updates).
    func tick() -> [TransportAction]
}

extension ConnectionHandler {
    /// A handler that defers nothing has nothing to do.
    public var hasDeferredWork: Bool { false }

    /// A handler that defers nothing has nothing to do.
    public func tick() -> [TransportAction] { [] }
}
