/// The natives under `FoundationPrelude`: the transaction's time, UUIDs, and Gregorian calendar arithmetic in UTC on
/// `Date`'s `timeIntervalSinceReferenceDate` (seconds since 2001-01-01 00:00:00 UTC).
extension Library {
    func registerFoundation() {
        function("__foundationNow()") { m, _ throws(ScriptFault) in .double(try m.now() - GregorianUTC.referenceOffset) }
        function("__foundationUUID()") { m, _ throws(ScriptFault) in .string(try m.uuidString()) }
        function("__foundationUnsupported(_:)") { m, args throws(ScriptFault) in
            throw m.fault("\(try m.string(args[0])) is not part of Canopy's Swift subset")
        }
        function("__foundationTimeZone(_:)") { m, args throws(ScriptFault) in
            let id = try m.string(args[0])
            guard ["UTC", "GMT", "Etc/UTC", "Etc/GMT"].contains(id) else {
                throw m.fault("the time zone \"\(id)\" is not part of Canopy's Swift subset: dates are computed in UTC only")
            }
            return .string(id)
        }
        function("__foundationLocale(_:)") { m, args throws(ScriptFault) in
            let id = try m.string(args[0])
            guard id == "en_US_POSIX" else {
                throw m.fault("the locale \"\(id)\" is not part of Canopy's Swift subset: it formats with en_US_POSIX only")
            }
            return .string(id)
        }
        function("__foundationField(_:_:)") { m, args throws(ScriptFault) in
            let fields = try m.gregorian(try m.double(args[0]))
            switch try m.int(args[1]) {
            case 0: return .int(1)
            case 1: return .int(fields.year)
            case 2: return .int(fields.month)
            case 3: return .int(fields.day)
            case 4: return .int(fields.hour)
            case 5: return .int(fields.minute)
            case 6: return .int(fields.second)
            case 7: return .int(fields.weekday)
            default: throw m.fault("Calendar.Component.weekOfYear is not part of Canopy's Swift subset")
            }
        }
        function("__foundationDate(_:)") { m, args throws(ScriptFault) in
            let p = try m.array(args[0]).map { v throws(ScriptFault) in try m.int(v) }
            return .double(try m.checked(GregorianUTC.time(year: p[0], month: p[1], day: p[2], hour: p[3], minute: p[4], second: p[5])))
        }
        function("__foundationAdd(_:_:_:)") { m, args throws(ScriptFault) in
            .double(try m.adding(try m.int(args[1]), try m.int(args[2]), to: try m.double(args[0])))
        }
        function("__foundationDifference(_:_:_:)") { m, args throws(ScriptFault) in
            var start = try m.double(args[0])
            let end = try m.double(args[1])
            var out: [Value] = []
            for u in try m.array(args[2]) {
                let unit = try m.int(u)
                let n = try m.difference(unit, from: start, to: end)
                start = try m.adding(unit, n, to: start)
                out.append(.int(n))
            }
            return .array(out)
        }
        function("__foundationFormat(_:_:)") { m, args throws(ScriptFault) in
            .string(try m.formatDate(try m.double(args[0]), pattern: try m.string(args[1])))
        }
        function("__foundationDescription(_:)") { m, args throws(ScriptFault) in
            // `Date.description` drops the fraction toward zero (-1.5 s prints as 23:59:59); formatters round to
            // the millisecond; a calendar's fields round down.
            let whole = (try m.double(args[0]) + GregorianUTC.referenceOffset).rounded(.towardZero)
            guard let g = GregorianUTC(since1970: whole) else { _ = try m.gregorian(.nan); return .null }
            return .string(try m.fields(g, pattern: "yyyy-MM-dd HH:mm:ss '+0000'", milliseconds: 0))
        }
        function("__foundationJoin(_:_:_:)") { m, args throws(ScriptFault) in
            let date = try m.string(args[0])
            let time = try m.string(args[1])
            if date.isEmpty || time.isEmpty { return .string(date + time) }
            return .string(try m.truth(args[2], at: m.site) ? "\(date), \(time)" : "\(date) 'at' \(time)")
        }
    }
}

/// Dates in the proleptic Gregorian calendar at UTC, from seconds since 2001-01-01 (Foundation's reference date).
struct GregorianUTC {
    /// Seconds from 1970-01-01 to 2001-01-01.
    static let referenceOffset = 978_307_200.0
    /// Days from 1970-01-01 to 1582-10-15, the first day Foundation's Gregorian calendar is Gregorian (before it,
    /// ICU counts Julian dates, which Canopy does not).
    static let firstGregorianDay = -141_427

    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    /// 1 = Sunday … 7 = Saturday.
    var weekday: Int
    /// 1-based.
    var dayOfYear: Int
    /// The fraction of the second, in 0..<1.
    var fraction: Double

    /// Days since 1970-01-01 of a date (months outside 1…12 carry into the year).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y0 = year + (month - 1 >= 0 ? (month - 1) / 12 : (month - 12) / 12)
        let m0 = ((month - 1) % 12 + 12) % 12 + 1
        let y = m0 <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m0 > 2 ? m0 - 3 : m0 + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count since 1970-01-01.
    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(year: Int, month: Int) -> Int {
        days(year: year, month: month + 1, day: 1) - days(year: year, month: month, day: 1)
    }

    /// Seconds since the reference date of a date and time (every field may overflow into the next).
    static func time(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Double {
        let d = days(year: year, month: month, day: day)
        return Double(d * 86_400 + hour * 3600 + minute * 60 + second) - referenceOffset
    }

    /// The fields of `t` (seconds since the reference date); nil before 1582-10-15 or outside what a day count holds.
    init?(_ t: Double) { self.init(since1970: t + Self.referenceOffset) }

    /// The fields of a time in seconds since 1970.
    init?(since1970: Double) {
        guard since1970.isFinite, abs(since1970) < 1e15 else { return nil }
        let whole = since1970.rounded(.down)
        let secs = Int(whole)
        let days = secs >= 0 ? secs / 86_400 : (secs - 86_399) / 86_400
        guard days >= Self.firstGregorianDay else { return nil }
        let sod = secs - days * 86_400
        let (y, m, d) = Self.civil(days)
        year = y
        month = m
        day = d
        hour = sod / 3600
        minute = sod % 3600 / 60
        second = sod % 60
        weekday = ((days + 4) % 7 + 7) % 7 + 1
        dayOfYear = days - Self.days(year: y, month: 1, day: 1) + 1
        fraction = since1970 - whole
    }
}

extension Machine {
    func gregorian(_ t: Double) throws(ScriptFault) -> GregorianUTC {
        guard let g = GregorianUTC(t) else {
            throw fault("dates before 15 October 1582 are not part of Canopy's Swift subset (Foundation's calendar is Julian there)")
        }
        return g
    }

    /// A computed date, refused when it falls before the Gregorian calendar.
    func checked(_ t: Double) throws(ScriptFault) -> Double {
        _ = try gregorian(t)
        return t
    }

    /// `t` plus `n` of calendar unit `unit` (1 year, 2 month, 3 day, 4 hour, 5 minute, 6 second, 8 week): a month or
    /// a year keeps the day of the month, clamped to the new month's length, as Foundation does.
    func adding(_ unit: Int, _ n: Int, to t: Double) throws(ScriptFault) -> Double {
        switch unit {
        case 1, 2:
            let g = try gregorian(t)
            let months = unit == 1 ? n * 12 : n
            let index = g.year * 12 + (g.month - 1) + months
            let year = index >= 0 ? index / 12 : (index - 11) / 12
            let month = index - year * 12 + 1
            let day = min(g.day, GregorianUTC.daysIn(year: year, month: month))
            let whole = GregorianUTC.time(year: year, month: month, day: day, hour: g.hour, minute: g.minute, second: g.second)
            return try checked(whole + g.fraction)
        case 3: return try checked(t + Double(n) * 86_400)
        case 4: return try checked(t + Double(n) * 3600)
        case 5: return try checked(t + Double(n) * 60)
        case 6: return try checked(t + Double(n))
        case 8: return try checked(t + Double(n) * 7 * 86_400)
        default: throw fault("adding this calendar component is not part of Canopy's Swift subset")
        }
    }

    /// How many whole `unit`s fit from `start` to `end` (negative when `end` is earlier), counted as Foundation's
    /// calendar does: the largest `n` whose `start + n units` does not pass `end`.
    func difference(_ unit: Int, from start: Double, to end: Double) throws(ScriptFault) -> Int {
        let approximate: Double
        switch unit {
        case 1: approximate = 365.2425 * 86_400
        case 2: approximate = 30.436875 * 86_400
        case 3: approximate = 86_400
        case 4: approximate = 3600
        case 5: approximate = 60
        case 6: approximate = 1
        default: approximate = 7 * 86_400
        }
        let forward = end >= start
        var n = Int(((end - start) / approximate).rounded(.towardZero))
        func fits(_ k: Int) throws(ScriptFault) -> Bool {
            let t = try adding(unit, k, to: start)
            return forward ? t <= end : t >= end
        }
        while try !fits(n) { n += forward ? -1 : 1 }
        while try fits(n + (forward ? 1 : -1)) { n += forward ? 1 : -1 }
        return n
    }

    /// A version 4 UUID from the input source's draws: 8-4-4-4-12 uppercase hex digits.
    func uuidString() throws(ScriptFault) -> String {
        var hi = try randomWord()
        var lo = try randomWord()
        hi = (hi & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        lo = (lo & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // variant 10
        func hex(_ v: UInt64, _ digits: Int) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return String(repeating: "0", count: digits - s.count) + s
        }
        return "\(hex(hi >> 32, 8))-\(hex((hi >> 16) & 0xFFFF, 4))-\(hex(hi & 0xFFFF, 4))-"
            + "\(hex(lo >> 48, 4))-\(hex(lo & 0xFFFF_FFFF_FFFF, 12))"
    }
}
