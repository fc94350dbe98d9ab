import CanopyCore
import CanopyViews
import Testing

@testable import CanopyLoad

/// `canopy load --program` / `--events`: program trees driven by `setText` events instead of edits.
@Suite(.serialized) struct LoadEventTests {
    static let form = """
        import SwiftUI

        struct Messages: PreferenceKey {
            static var defaultValue = 0
            static func reduce(value: inout Int, nextValue: () -> Int) { value += nextValue() }
        }

        struct Field: View {
            let index: Int
            @State private var text = ""
            var body: some View {
                TextField("Field \\(index)", text: $text)
                    .preference(key: Messages.self, value: text.count < 3 ? 1 : 0)
            }
        }

        struct SmallForm: View {
            @State private var count = 0
            @State private var password = ""
            var body: some View {
                VStack {
                    Text("\\(count) fields need attention")
                    ForEach(0..<4, id: \\.self) { i in Field(index: i) }
                    SecureField("Password", text: $password)
                }
                .onPreferenceChange(Messages.self) { count = $0 }
            }
        }
        """

    @Test func aProgramSnapshotGivesItsTextFieldsAndEventsCycleTheirText() throws {
        let start = try ViewRuntime().start(
            ProgramSpec(source: Self.form, view: "SmallForm"), cells: [], version: 0, limits: .default, trace: false)
        let snapshot: JSON = [
            "type": "snapshot", "tree": "t", "root": start.tree.root.json, "program": ["view": "SmallForm"],
        ]
        let model = try LoadTreeModel.program(snapshot: snapshot)
        let ids = model.fields.map { try? JSONParser.parse(bytes: Array(model.names[Int($0)].utf8)).string }
        #expect(ids == [
            "SmallForm/0:VStack/1:ForEach/[0]:Field/0:TextField", "SmallForm/0:VStack/1:ForEach/[1]:Field/0:TextField",
            "SmallForm/0:VStack/1:ForEach/[2]:Field/0:TextField", "SmallForm/0:VStack/1:ForEach/[3]:Field/0:TextField",
            "SmallForm/0:VStack/2:SecureField",
        ])
        var random = SplitMix64(seed: 3)
        var texts: [String: [String]] = [:]
        for seq in 1...60 {
            var out: [UInt8] = []
            model.writeEvent(seq: Int64(seq), random: &random, into: &out)
            let event = try JSONParser.parse(bytes: out)
            #expect(event["type"] == "event" && event["tree"] == "t" && event["event"] == "setText")
            #expect(event["seq"] == .int(Int64(seq)))
            let node = try #require(event["node"]?.string)
            texts[node, default: []].append(try #require(event["value"]?.string))
        }
        // Each field's text grows by one letter up to five, then is cleared.
        for (_, values) in texts {
            var previous = ""
            for v in values {
                #expect(v == "" ? previous.count == 5 : v.count == previous.count + 1 && v.hasPrefix(previous))
                previous = v
            }
        }
    }

    @Test func aTreeThatIsNotAProgramIsRefused() {
        let snapshot: JSON = ["type": "snapshot", "tree": "plain", "root": ["id": "r", "type": "VStack"]]
        #expect { try LoadTreeModel.program(snapshot: snapshot) } throws: {
            ($0 as? LoadError)?.message == "tree plain is not a program tree: events need one (leave out --events)"
        }
    }

    @Test func eventsExcludeEditOptions() {
        var c = LoadConfiguration()
        c.program = Self.form
        c.mix = OpMix()
        #expect { try c.validate() } throws: {
            ($0 as? LoadError)?.message == "events are setText on text fields: leave out --mix"
        }
        c = LoadConfiguration()
        c.events = true
        #expect { try c.validate() } throws: {
            ($0 as? LoadError)?.message == "--events needs --tree (an existing program tree) or --program"
        }
    }

    @Test func aProgramRunSendsEventsThatEverySubscriberReceives() throws {
        let daemon = try InProcessDaemon(programs: ViewRuntime())
        defer { daemon.stop() }
        var c = LoadConfiguration()
        c.program = Self.form
        c.programView = "SmallForm"
        c.clients = 3
        c.rate = 100
        c.warmup = 0.2
        c.duration = 0.8
        let report = try LoadRunner(configuration: c, url: daemon.url).run()
        #expect(report.totalRejected == 0 && report.unanswered == 0)
        #expect(report.totalSent >= 90 && report.totalSent == report.totalAccepted)
        // The writer and 3 clients subscribe: every event's diff reaches 3 others besides its author.
        #expect(report.delivery.count == report.ack.count * 3)
        #expect(report.totalDiffs == report.totalAccepted * 4)
        #expect(report.json["config"]?["events"] == "setText")
        #expect(report.text.contains("events accepted"))
        let metrics = try daemon.metrics()
        #expect(metrics["canopy_diffs_delivered_total"] == Double(report.totalDiffs))
        #expect(metrics["canopy_trees"] == 0)
    }
}
