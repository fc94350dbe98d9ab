/// Foundation's value types that real SwiftUI code uses, written in Swift over a few natives
/// (`Library+Date.swift`, `Library+DateFormat.swift`): `Date`, `UUID`, `TimeZone`, `Locale`, `Calendar`,
/// `DateComponents`, `DateFormatter` and `Date.FormatStyle`; `NSNumber`, `NumberFormatter` and the numbers'
/// `formatted()` (`Library+NumberFormat.swift`). Compiled only with programs that name one of them.
///
/// Deterministic by construction (docs/programs.md, "Foundation values"): `Date()` is the transaction's time and
/// `UUID()` draws from the transaction's generator, both recorded with it; calendars are Gregorian, and the only
/// time zone and locale are UTC and `en_US_POSIX` (others fault, naming what is missing).
enum FoundationPrelude {
    /// Whether `source` may use one of these types (a cheap textual test: the prelude costs compile time).
    static func isNeeded(by source: String) -> Bool {
        ["Date", "UUID", "Calendar", "TimeZone", "Locale", "Formatter", "FormatStyle", "formatted", "NSNumber"].contains { source.contains($0) }
    }

    static let source = """
        struct Date: Equatable, Hashable, Comparable, CustomStringConvertible {
            var timeIntervalSinceReferenceDate: Double
            init() { timeIntervalSinceReferenceDate = __foundationNow() }
            init(timeIntervalSinceReferenceDate t: Double) { timeIntervalSinceReferenceDate = t }
            init(timeIntervalSince1970 t: Double) { timeIntervalSinceReferenceDate = t - 978307200.0 }
            init(timeIntervalSinceNow t: Double) { timeIntervalSinceReferenceDate = __foundationNow() + t }
            init(timeInterval t: Double, since date: Date) {
                timeIntervalSinceReferenceDate = date.timeIntervalSinceReferenceDate + t
            }
            static func __now() -> Date { Date() }
            static let distantPast = Date(timeIntervalSinceReferenceDate: -63114076800.0)
            static let distantFuture = Date(timeIntervalSinceReferenceDate: 63113904000.0)
            static let timeIntervalBetween1970AndReferenceDate = 978307200.0
            var timeIntervalSince1970: Double { timeIntervalSinceReferenceDate + 978307200.0 }
            var timeIntervalSinceNow: Double { timeIntervalSinceReferenceDate - __foundationNow() }
            func timeIntervalSince(_ date: Date) -> Double {
                timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate
            }
            func addingTimeInterval(_ t: Double) -> Date {
                Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate + t)
            }
            mutating func addTimeInterval(_ t: Double) { timeIntervalSinceReferenceDate += t }
            func advanced(by t: Double) -> Date { addingTimeInterval(t) }
            func distance(to other: Date) -> Double { other.timeIntervalSinceReferenceDate - timeIntervalSinceReferenceDate }
            static func < (a: Date, b: Date) -> Bool { a.timeIntervalSinceReferenceDate < b.timeIntervalSinceReferenceDate }
            static func + (a: Date, t: Double) -> Date { a.addingTimeInterval(t) }
            static func - (a: Date, t: Double) -> Date { a.addingTimeInterval(-t) }
            static func += (a: inout Date, t: Double) { a = a.addingTimeInterval(t) }
            static func -= (a: inout Date, t: Double) { a = a.addingTimeInterval(-t) }
            var description: String { __foundationDescription(timeIntervalSinceReferenceDate) }
            func formatted() -> String { formatted(Date.FormatStyle()) }
            func formatted(date: Date.FormatStyle.DateStyle, time: Date.FormatStyle.TimeStyle) -> String {
                formatted(Date.FormatStyle(date: date, time: time))
            }
            func formatted(_ style: Date.FormatStyle) -> String { style.format(self) }
            func ISO8601Format() -> String { __foundationFormat(timeIntervalSinceReferenceDate, "yyyy-MM-dd'T'HH:mm:ss'Z'") }

            struct FormatStyle: Equatable, Hashable {
                enum DateStyle: Equatable, Hashable { case omitted, numeric, abbreviated, long, complete }
                enum TimeStyle: Equatable, Hashable { case omitted, shortened, standard, complete }
                var date: DateStyle = .numeric
                var time: TimeStyle = .shortened
                var locale: Locale = Locale.current
                var timeZone: TimeZone = TimeZone.current
                init(date: DateStyle = .numeric, time: TimeStyle = .shortened, locale: Locale = Locale.current, timeZone: TimeZone = TimeZone.current) {
                    self.date = date
                    self.time = time
                    self.locale = locale
                    self.timeZone = timeZone
                }
                func format(_ value: Date) -> String {
                    if date == .omitted && time == .omitted {
                        return Date.FormatStyle(date: .numeric, time: .shortened).format(value)
                    }
                    var datePattern = ""
                    switch date {
                    case .omitted: datePattern = ""
                    case .numeric: datePattern = "M/d/y"
                    case .abbreviated: datePattern = "MMM d, y"
                    case .long: datePattern = "MMMM d, y"
                    case .complete: datePattern = "EEEE, MMMM d, y"
                    }
                    var timePattern = ""
                    switch time {
                    case .omitted: timePattern = ""
                    case .shortened: timePattern = "h:mm\\u{202F}a"
                    case .standard: timePattern = "h:mm:ss\\u{202F}a"
                    case .complete: timePattern = "h:mm:ss\\u{202F}a z"
                    }
                    return __foundationFormat(value.timeIntervalSinceReferenceDate, __foundationJoin(datePattern, timePattern, date == .numeric))
                }
            }
        }

        struct UUID: Equatable, Hashable, CustomStringConvertible {
            let uuidString: String
            init() { uuidString = __foundationUUID() }
            var description: String { uuidString }
        }

        struct TimeZone: Equatable, Hashable, CustomStringConvertible {
            let identifier: String
            init(identifier: String) { self.identifier = __foundationTimeZone(identifier) }
            init(secondsFromGMT seconds: Int) { identifier = __foundationTimeZone(seconds == 0 ? "GMT" : "GMT\\(seconds)") }
            init(abbreviation: String) { identifier = __foundationTimeZone(abbreviation) }
            static var current: TimeZone { TimeZone(identifier: "UTC") }
            static var autoupdatingCurrent: TimeZone { TimeZone(identifier: "UTC") }
            static let gmt = TimeZone(identifier: "GMT")
            func secondsFromGMT() -> Int { 0 }
            func secondsFromGMT(for date: Date) -> Int { 0 }
            var description: String { __foundationUnsupported("printing a TimeZone") }
        }

        struct Locale: Equatable, Hashable {
            let identifier: String
            init(identifier: String) { self.identifier = __foundationLocale(identifier) }
            static var current: Locale { Locale(identifier: "en_US_POSIX") }
            static var autoupdatingCurrent: Locale { Locale(identifier: "en_US_POSIX") }
        }

        struct DateComponents: Equatable, Hashable, CustomStringConvertible {
            var era: Int? = nil
            var year: Int? = nil
            var month: Int? = nil
            var day: Int? = nil
            var hour: Int? = nil
            var minute: Int? = nil
            var second: Int? = nil
            var weekday: Int? = nil
            var description: String { __foundationUnsupported("printing a DateComponents") }
        }

        struct Calendar: Equatable, Hashable {
            enum Identifier: Equatable, Hashable { case gregorian }
            enum Component: Int, Equatable, Hashable { case era, year, month, day, hour, minute, second, weekday, weekOfYear }
            var identifier: Identifier = .gregorian
            var timeZone: TimeZone = TimeZone.current
            var locale: Locale? = Locale.current
            init(identifier: Identifier) { self.identifier = identifier }
            static var current: Calendar { Calendar(identifier: .gregorian) }
            static var autoupdatingCurrent: Calendar { Calendar(identifier: .gregorian) }
            var firstWeekday: Int { 1 }
            func component(_ component: Component, from date: Date) -> Int {
                __foundationField(date.timeIntervalSinceReferenceDate, component.rawValue)
            }
            func dateComponents(_ components: Set<Component>, from date: Date) -> DateComponents {
                var c = DateComponents()
                let t = date.timeIntervalSinceReferenceDate
                if components.contains(.era) { c.era = __foundationField(t, 0) }
                if components.contains(.year) { c.year = __foundationField(t, 1) }
                if components.contains(.month) { c.month = __foundationField(t, 2) }
                if components.contains(.day) { c.day = __foundationField(t, 3) }
                if components.contains(.hour) { c.hour = __foundationField(t, 4) }
                if components.contains(.minute) { c.minute = __foundationField(t, 5) }
                if components.contains(.second) { c.second = __foundationField(t, 6) }
                if components.contains(.weekday) { c.weekday = __foundationField(t, 7) }
                if components.contains(.weekOfYear) { __foundationUnsupported("DateComponents.weekOfYear") }
                return c
            }
            func dateComponents(_ components: Set<Component>, from start: Date, to end: Date) -> DateComponents {
                let order: [Component] = [Component.year, Component.month, Component.weekOfYear, Component.day, Component.hour, Component.minute, Component.second]
                let units = order.filter { components.contains($0) }.map { $0.rawValue }
                let n = __foundationDifference(start.timeIntervalSinceReferenceDate, end.timeIntervalSinceReferenceDate, units)
                var c = DateComponents()
                for (i, u) in units.enumerated() {
                    switch u {
                    case 1: c.year = n[i]
                    case 2: c.month = n[i]
                    case 3: c.day = n[i]
                    case 4: c.hour = n[i]
                    case 5: c.minute = n[i]
                    case 6: c.second = n[i]
                    default: __foundationUnsupported("DateComponents.weekOfYear")
                    }
                }
                return c
            }
            func date(from c: DateComponents) -> Date? {
                if c.era != nil || c.weekday != nil { __foundationUnsupported("a date from an era or a weekday") }
                return Date(timeIntervalSinceReferenceDate: __foundationDate([c.year ?? 1, c.month ?? 1, c.day ?? 1, c.hour ?? 0, c.minute ?? 0, c.second ?? 0]))
            }
            func date(byAdding component: Component, value: Int, to date: Date) -> Date? {
                Date(timeIntervalSinceReferenceDate: __foundationAdd(date.timeIntervalSinceReferenceDate, component.rawValue, value))
            }
            func date(byAdding c: DateComponents, to date: Date) -> Date? {
                if c.era != nil || c.weekday != nil { __foundationUnsupported("adding an era or a weekday") }
                var t = date.timeIntervalSinceReferenceDate
                t = __foundationAdd(t, 1, c.year ?? 0)
                t = __foundationAdd(t, 2, c.month ?? 0)
                t = __foundationAdd(t, 3, c.day ?? 0)
                t = __foundationAdd(t, 4, c.hour ?? 0)
                t = __foundationAdd(t, 5, c.minute ?? 0)
                t = __foundationAdd(t, 6, c.second ?? 0)
                return Date(timeIntervalSinceReferenceDate: t)
            }
            func startOfDay(for date: Date) -> Date {
                let t = date.timeIntervalSinceReferenceDate
                return Date(timeIntervalSinceReferenceDate: __foundationDate([__foundationField(t, 1), __foundationField(t, 2), __foundationField(t, 3), 0, 0, 0]))
            }
            func isDate(_ a: Date, inSameDayAs b: Date) -> Bool { startOfDay(for: a) == startOfDay(for: b) }
            func isDateInToday(_ date: Date) -> Bool { isDate(date, inSameDayAs: Date()) }
            func isDateInWeekend(_ date: Date) -> Bool {
                let w = component(.weekday, from: date)
                return w == 1 || w == 7
            }
        }

        class DateFormatter {
            enum Style: Int, Equatable, Hashable { case none, short, medium, long, full }
            var dateFormat: String = "" { didSet { usesStyles = false } }
            var dateStyle: Style = .none { didSet { usesStyles = true } }
            var timeStyle: Style = .none { didSet { usesStyles = true } }
            var locale: Locale = Locale.current
            var timeZone: TimeZone = TimeZone.current
            var usesStyles = true
            init() {}
            func string(from date: Date) -> String {
                if !usesStyles { return __foundationFormat(date.timeIntervalSinceReferenceDate, dateFormat) }
                var datePattern = ""
                switch dateStyle {
                case .none: datePattern = ""
                case .short: datePattern = "M/d/yy"
                case .medium: datePattern = "MMM d, y"
                case .long: datePattern = "MMMM d, y"
                case .full: datePattern = "EEEE, MMMM d, y"
                }
                var timePattern = ""
                switch timeStyle {
                case .none: timePattern = ""
                case .short: timePattern = "h:mm\\u{202F}a"
                case .medium: timePattern = "h:mm:ss\\u{202F}a"
                case .long: timePattern = "h:mm:ss\\u{202F}a z"
                case .full: timePattern = "h:mm:ss\\u{202F}a zzzz"
                }
                return __foundationFormat(date.timeIntervalSinceReferenceDate, __foundationJoin(datePattern, timePattern, dateStyle == .short))
            }
        }

        // Numbers, laid out by `__numberFormat` with the ICU settings swift-corelibs-foundation ends up with.
        class NSNumber: CustomStringConvertible {
            let __value: Any
            init(value: Any) { __value = __numberValue(value) }
            var intValue: Int { __numberInt(__value) }
            var doubleValue: Double { __numberDouble(__value) }
            var description: String { __foundationUnsupported("printing an NSNumber") }
        }

        class NumberFormatter {
            enum Style: Int, Equatable, Hashable {
                case none = 0
                case decimal = 1
                case currency = 2
                case percent = 3
                case scientific = 4
            }
            enum RoundingMode: Int, Equatable, Hashable { case ceiling, floor, down, up, halfEven, halfDown, halfUp }
            var numberStyle: Style = .none
            var locale: Locale = Locale.current
            var roundingMode: RoundingMode = .halfEven
            var groupingSeparator: String? = ","
            var decimalSeparator: String? = "."
            var __minimumIntegerDigits: Int? = nil
            var __maximumIntegerDigits: Int? = nil
            var __minimumFractionDigits: Int? = nil
            var __maximumFractionDigits: Int? = nil
            var __usesGroupingSeparator: Bool? = nil
            init() {}
            // What each property reads before it is set: swift-corelibs-foundation's defaults for the style.
            var minimumIntegerDigits: Int {
                get { __minimumIntegerDigits ?? 1 }
                set { __minimumIntegerDigits = newValue }
            }
            var maximumIntegerDigits: Int {
                get { __maximumIntegerDigits ?? (numberStyle == .none ? 42 : numberStyle == .scientific ? 1 : 2000000000) }
                set { __maximumIntegerDigits = newValue }
            }
            var minimumFractionDigits: Int {
                get { __minimumFractionDigits ?? (numberStyle == .currency ? 2 : 0) }
                set { __minimumFractionDigits = newValue }
            }
            var maximumFractionDigits: Int {
                get { __maximumFractionDigits ?? (numberStyle == .currency ? 2 : numberStyle == .decimal ? 3 : 0) }
                set { __maximumFractionDigits = newValue }
            }
            var usesGroupingSeparator: Bool {
                get { __usesGroupingSeparator ?? (numberStyle != .none && numberStyle != .scientific) }
                set { __usesGroupingSeparator = newValue }
            }
            func string(from number: NSNumber) -> String? { __format(number.__value) }
            func string(for value: Any?) -> String? {
                if let n = value as? NSNumber { return __format(n.__value) }
                guard let v = value, __numberIsNumber(v) else { return nil }
                return __format(__numberValue(v))
            }
            func number(from string: String) -> NSNumber? {
                __foundationUnsupported("NumberFormatter.number(from:) (ICU's parsing is not reproduced)")
            }
            // The settings corelibs gives ICU: the style's pattern, then the digits that were set, in this order,
            // each raising or lowering its partner as ICU does; the maximum fraction digits only when the minimum
            // (set or the style's) is 0 (corelibs' `if minimumFractionDigits <= 0`).
            func __format(_ value: Any) -> String {
                let style = numberStyle
                var minInt = 1
                var maxInt = style == .none ? 42 : style == .scientific ? 1 : 2000000000
                var minFraction = style == .currency ? 2 : style == .scientific ? 6 : 0
                var maxFraction = style == .currency ? 2 : style == .decimal || style == .scientific ? 6 : 0
                let digits = [__minimumIntegerDigits, __maximumIntegerDigits, __minimumFractionDigits, __maximumFractionDigits]
                for d in digits {
                    if let d = d, d < 0 { __foundationUnsupported("a negative number of digits in a NumberFormatter") }
                }
                if style == .scientific && (__minimumIntegerDigits != nil || __maximumIntegerDigits != nil) {
                    __foundationUnsupported("integer digits of a scientific NumberFormatter")
                }
                if let v = __minimumIntegerDigits {
                    minInt = v
                    if maxInt < v { maxInt = v }
                }
                if let v = __maximumIntegerDigits {
                    maxInt = v
                    if minInt > v { minInt = v }
                }
                if let v = __minimumFractionDigits {
                    minFraction = v
                    if maxFraction < v { maxFraction = v }
                }
                if minimumFractionDigits <= 0 {
                    maxFraction = maximumFractionDigits
                    if minFraction > maxFraction { minFraction = maxFraction }
                }
                let grouping = usesGroupingSeparator && style != .none && style != .scientific ? 3 : 0
                let settings = [style == .percent ? 1 : 0, minInt, maxInt, minFraction, maxFraction, grouping, roundingMode.rawValue, style == .scientific ? 1 : 0, 0]
                let prefix = style == .currency ? "$\\u{00A0}" : ""
                let suffix = style == .percent ? "%" : ""
                return __numberFormat(value, settings, [groupingSeparator ?? ",", decimalSeparator ?? ".", prefix, suffix, "+∞"])
            }
        }

        struct NumberFormatStyleConfiguration {
            struct Precision: Equatable, Hashable {
                let __fraction: Int
                init(__fraction: Int) { self.__fraction = __fraction }
                static func fractionLength(_ n: Int) -> Precision { Precision(__fraction: n) }
            }
            enum Grouping: Equatable, Hashable { case automatic, never }
        }

        // `IntegerFormatStyle`, `FloatingPointFormatStyle` and their `Percent`, in one type.
        struct __NumberFormatStyle: Equatable, Hashable {
            var __percent = false
            var __minimumFraction = 0
            var __maximumFraction = 6
            var __locale = Locale.current
            init() {}
            static var number: __NumberFormatStyle { __NumberFormatStyle() }
            static var percent: __NumberFormatStyle {
                var s = __NumberFormatStyle()
                s.__percent = true
                return s
            }
            func precision(_ p: NumberFormatStyleConfiguration.Precision) -> __NumberFormatStyle {
                if p.__fraction < 0 { __foundationUnsupported("a negative fractionLength") }
                var s = self
                s.__minimumFraction = p.__fraction
                s.__maximumFraction = p.__fraction
                return s
            }
            // en_US_POSIX groups no digits, whichever grouping is asked for.
            func grouping(_ g: NumberFormatStyleConfiguration.Grouping) -> __NumberFormatStyle { self }
            func locale(_ l: Locale) -> __NumberFormatStyle {
                var s = self
                s.__locale = l
                return s
            }
            func __format(_ value: Any, integer: Bool) -> String {
                let scale = __percent && !integer ? 2 : 0
                let settings = [scale, 1, 2000000000, __minimumFraction, __maximumFraction, 0, 4, 0, 1]
                return __numberFormat(value, settings, [",", ".", "", __percent ? "%" : "", "INF"])
            }
        }

        extension Int {
            func formatted() -> String { __NumberFormatStyle().__format(self, integer: true) }
            func formatted(_ style: __NumberFormatStyle) -> String { style.__format(self, integer: true) }
        }

        extension Double {
            func formatted() -> String { __NumberFormatStyle().__format(self, integer: false) }
            func formatted(_ style: __NumberFormatStyle) -> String { style.__format(self, integer: false) }
        }
        """
}
