import Foundation

func main() {
    let posix = Locale(identifier: "en_US_POSIX")
    let utc = TimeZone(identifier: "UTC")!
    let d = Date(timeIntervalSince1970: 1795855580.75)
    print(d.formatted(Date.FormatStyle(locale: posix, timeZone: utc)))
    let dates: [Date.FormatStyle.DateStyle] = [.omitted, .numeric, .abbreviated, .long, .complete]
    let times: [Date.FormatStyle.TimeStyle] = [.omitted, .shortened, .standard, .complete]
    for ds in dates {
        for ts in times {
            print(d.formatted(Date.FormatStyle(date: ds, time: ts, locale: posix, timeZone: utc)))
        }
    }
    let morning = Date(timeIntervalSince1970: 1767225600 + 5)
    print(morning.formatted(Date.FormatStyle(date: .numeric, time: .standard, locale: posix, timeZone: utc)))
}
