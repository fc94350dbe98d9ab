// canopy: view=LapBoard title="Numeric keys: five reduce bodies over the same laps" description="Every lap row writes its points and time under five keys whose reduce bodies sum, take the maximum, keep the last, keep the first and fold a summary. The board reads them all, and adding a lap changes every key except the first."
import SwiftUI

// MARK: - Five keys, five reduce bodies

/// Sum: every lap's points.
struct TotalPoints: PreferenceKey {
    static var defaultValue = 0

    static func reduce(value: inout Int, nextValue: () -> Int) {
        value += nextValue()
    }
}

/// Maximum: the best single lap.
struct HighScore: PreferenceKey {
    static var defaultValue = 0

    static func reduce(value: inout Int, nextValue: () -> Int) {
        value = max(value, nextValue())
    }
}

/// Last wins: the most recent lap that wrote a number.
struct LatestLap: PreferenceKey {
    static var defaultValue: Int? = nil

    static func reduce(value: inout Int?, nextValue: () -> Int?) {
        if let next = nextValue() {
            value = next
        }
    }
}

/// First wins: once a value is there, later siblings are never asked.
struct OpeningLap: PreferenceKey {
    static var defaultValue: Int? = nil

    static func reduce(value: inout Int?, nextValue: () -> Int?) {
        if value == nil {
            value = nextValue()
        }
    }
}

/// A custom fold: count, total time and fastest time together.
struct LapSummary: Equatable {
    var count = 0
    var totalTime = 0.0
    var fastest: Double?

    var average: Double { count == 0 ? 0 : totalTime / Double(count) }
}

struct LapStats: PreferenceKey {
    static var defaultValue = LapSummary()

    static func reduce(value: inout LapSummary, nextValue: () -> LapSummary) {
        let next = nextValue()
        value.count += next.count
        value.totalTime += next.totalTime
        if let time = next.fastest {
            value.fastest = min(value.fastest ?? time, time)
        }
    }
}

// MARK: - Views

struct Lap: Identifiable, Equatable {
    let id: Int
    let seconds: Double
    let points: Int
}

struct LapRow: View {
    let lap: Lap

    var body: some View {
        HStack {
            Text("Lap \(lap.id)")
            Spacer()
            Text("\(lap.seconds) s")
            Text("\(lap.points) pts")
                .monospacedDigit()
        }
        .preference(key: TotalPoints.self, value: lap.points)
        .preference(key: HighScore.self, value: lap.points)
        .preference(key: LatestLap.self, value: lap.id)
        .preference(key: OpeningLap.self, value: lap.id)
        .preference(key: LapStats.self, value: LapSummary(count: 1, totalTime: lap.seconds, fastest: lap.seconds))
    }
}

struct LapBoard: View {
    @State private var laps = [
        Lap(id: 1, seconds: 72.0, points: 10),
        Lap(id: 2, seconds: 70.5, points: 15),
        Lap(id: 3, seconds: 71.25, points: 12),
    ]
    @State private var total = 0
    @State private var high = 0
    @State private var latest: Int?
    @State private var opening: Int?
    @State private var summary = LapSummary()

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            VStack(alignment: .leading) {
                ForEach(laps) { lap in
                    LapRow(lap: lap)
                }
            }
            .onPreferenceChange(TotalPoints.self) { total = $0 }
            .onPreferenceChange(HighScore.self) { high = $0 }
            .onPreferenceChange(LatestLap.self) { latest = $0 }
            .onPreferenceChange(OpeningLap.self) { opening = $0 }
            .onPreferenceChange(LapStats.self) { summary = $0 }

            Divider()
            Text("Total: \(total) points")
            Text("High score: \(high) points")
            Text("Latest lap: \(latest ?? 0)")
            Text("Opening lap: \(opening ?? 0)")
            Text("\(summary.count) laps, fastest \(summary.fastest ?? 0) s, average \(summary.average) s")
            Button("Add lap") {
                let next = laps.count + 1
                laps.append(Lap(id: next, seconds: 68.0 + Double(next) / 2, points: next * 5))
            }
        }
        .padding()
    }
}

#Preview {
    LapBoard()
}
