/// How a loop's thread waits for its connections' events.
public enum EventLoopKind: String, CaseIterable, Sendable {
    /// lws's own `poll()`: every wake looks at every connection, so a wake costs more the more connections are open.
    case poll
    /// A libuv loop the thread owns, which lws runs on (epoll on Linux): a wake costs what is ready. Needs lws's
    /// libuv plugin (Debian: libwebsockets-evlib-uv, which libwebsockets-dev depends on).
    case libuv
}
