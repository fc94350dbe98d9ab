import CanopyCore

/// The requests every load connection makes: the writers, the subscribers, the slow readers and the admin session.
enum LoadMessages {
    /// `hello` as `client`, with the token when the daemon has tokens.
    static func hello(client: String, token: String?) -> JSON {
        var hello: JSONObject = ["type": "hello", "client": .string(client)]
        if let token { hello["token"] = .string(token) }
        return .object(hello)
    }

    /// `subscribe` to `tree`; after a reconnection, `since` the last version seen (0: a fresh snapshot).
    static func subscribe(tree: String, since version: Int64) -> JSON {
        var subscribe: JSONObject = ["type": "subscribe", "tree": .string(tree)]
        if version > 0 { subscribe["since"] = .int(version) }
        return .object(subscribe)
    }
}
