import Foundation

func main() {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "UTC")!
    let d = Date(timeIntervalSince1970: 1795855580.75)
    let patterns = [
        "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "EEE, d MMM yyyy HH:mm:ss Z", "EEEE MMMM d", "h:mm a", "hh 'o''clock' a",
        "yy M/d", "D DDD", "QQQ QQQQ Q", "k K H h", "MMMMM EEEEE EEEEEE", "G GGGG", "xxx XXX ZZZZZ z zzzz", "LLL LLLL",
    ]
    for p in patterns {
        f.dateFormat = p
        print(f.string(from: d))
    }
    let midnight = Date(timeIntervalSince1970: 1767225600)
    f.dateFormat = "h:mm a k K"
    print(f.string(from: midnight))
    print(f.string(from: midnight.addingTimeInterval(12 * 3600)))
    let styles: [DateFormatter.Style] = [.none, .short, .medium, .long, .full]
    for ds in styles {
        for ts in styles {
            f.dateStyle = ds
            f.timeStyle = ts
            print("[" + f.string(from: d) + "]")
        }
    }
    f.dateFormat = "yyyy"
    print(f.string(from: d))
    rounding()
}

func rounding() {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "UTC")!
    f.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS SSSS S"
    var cal = Calendar(identifier: .gregorian)
    cal.timeZone = TimeZone(identifier: "UTC")!
    for t in [-0.5, -1.5, -86400.5, -0.0001, 1.9999, 0.0005, 1.0006, -978307200.5, 59.9996] {
        let d = Date(timeIntervalSince1970: t)
        print(t, d, f.string(from: d), cal.component(.second, from: d), cal.startOfDay(for: d))
    }
}
