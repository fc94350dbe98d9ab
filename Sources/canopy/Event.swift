import ArgumentParser
import CanopyCore
import Foundation

extension Canopy {
    struct Event: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send an event to a program tree (a tap, a text edit, a post…) and print what it changed.",
            discussion: """
                `canopy event TREE NODE EVENT [VALUE]` sends EVENT (tap, setText, focus, commit, setValue, \
                increment, decrement, scroll) to NODE; VALUE is read as JSON when it is JSON (42, true, "42", \
                '{"y":120}') and as a string otherwise (bob). `canopy event TREE --post NAME` posts a notification \
                to the whole tree; `canopy event TREE --resize 852x393` (or a device name) resizes its canvas. \
                Waits for the event's diff and prints the new version, the state changes and the reader changes; \
                a rejected event prints its code and message (a Swift fault: where, and its call stack) and the \
                exit status is 1.
                """)

        @Argument(help: "The program tree.")
        var tree: String

        @Argument(help: "The node the event happens on.")
        var node: String?

        @Argument(help: "The event: tap, setText, focus, commit, setValue, increment, decrement.")
        var event: String?

        @Argument(help: "The event's value: JSON, or else a string.")
        var value: String?

        @Option(help: ArgumentHelp("Post this notification name to the whole tree.", valueName: "name"))
        var post: String?

        @Option(help: ArgumentHelp("Resize the tree's canvas: WIDTHxHEIGHT in points, or a device name.", valueName: "WxH"))
        var resize: String?

        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            if post != nil && resize != nil { throw ValidationError("give --post or --resize, not both") }
            if post != nil || resize != nil {
                if node != nil { throw ValidationError("--post and --resize go to the whole tree: name no node or event") }
            } else if node == nil || event == nil {
                throw ValidationError("name the node and the event (canopy event TREE NODE EVENT [VALUE]), or --post")
            }
        }

        /// The `event` message with sequence number `seq`.
        func message(seq: JSON) -> JSONObject {
            var message: JSONObject = ["type": "event", "tree": .string(tree), "seq": seq]
            if let post {
                message["event"] = "post"
                message["name"] = .string(post)
            } else if let resize {
                message["event"] = "resize"
                message["value"] = Run.canvasJSON(resize) ?? ["device": .string(resize)]
            } else {
                message["node"] = node.map { .string($0) }
                message["event"] = event.map { .string($0) }
                if let value { message["value"] = Event.parseValue(value) }
            }
            return message
        }

        /// `text` as JSON when it parses, else as a string: `bob` and `"bob"` are both the string bob.
        static func parseValue(_ text: String) -> JSON {
            (try? JSONParser.parse(text)) ?? .string(text)
        }

        func run() throws {
            let session = try connection.connect()
            // Milliseconds since 1970, as `edit` numbers its batches: grows from one invocation to the next.
            let seq = JSON.int(Int64(Date().timeIntervalSince1970 * 1000))
            let diff: JSON
            do {
                diff = try session.edit(message(seq: seq))
            } catch let error as ServerError {
                if connection.json { emit(jsonLine(error.message)) }
                throw error
            }
            if connection.json { return emit(jsonLine(diff)) }
            for line in Event.lines(tree: tree, diff: diff) { emit(line) }
        }

        /// `TREE version N: EVENT on NODE`, then the state changes, the reader changes and warnings of `diff`.
        static func lines(tree: String, diff: JSON) -> [String] {
            let cause = diff["event"].map { ": " + Format.event($0) } ?? ""
            var out = ["\(tree) version \(Int(diff["version"]?.number ?? 0))\(cause)"]
            for cell in diff["state"]?.array ?? [] { out.append("  state " + Format.cell(cell)) }
            for change in diff["changes"]?.array ?? [] { out.append("  → " + Format.reader(change)) }
            if let canvas = diff["canvas"] {
                out.append("  canvas \(Format.number(canvas["width"]))x\(Format.number(canvas["height"]))")
            }
            for s in diff["scroll"]?.array ?? [] {
                let o = s["offset"]?.array ?? []
                out.append("  scroll \(s["node"]?.string ?? "?") to (\(o.map { Format.number($0) }.joined(separator: ", ")))")
            }
            if let frames = diff["frames"]?.array, !frames.isEmpty {
                out.append("  \(frames.count) frame\(frames.count == 1 ? "" : "s") moved")
            }
            for warning in diff["warnings"]?.array ?? [] { out.append("  warning: " + Format.warning(warning)) }
            if out.count == 1 { out.append("  nothing changed") }
            return out
        }
    }
}
