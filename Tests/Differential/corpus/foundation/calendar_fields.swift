import Foundation

func main() {
    var cal = Calendar(identifier: .gregorian)
    cal.timeZone = TimeZone(identifier: "UTC")!
    let d = Date(timeIntervalSince1970: 1795855580.75)
    print(cal.component(.year, from: d), cal.component(.month, from: d), cal.component(.day, from: d))
    print(cal.component(.hour, from: d), cal.component(.minute, from: d), cal.component(.second, from: d))
    print(cal.component(.weekday, from: d), cal.component(.era, from: d))
    let c = cal.dateComponents([.year, .month, .day], from: d)
    print(c.year!, c.month!, c.day!, c.hour == nil)
    let made = cal.date(from: DateComponents(year: 2024, month: 2, day: 29))!
    print(made)
    print(cal.date(from: DateComponents(year: 2024, month: 14, day: 0, hour: 25))!)
    print(cal.date(byAdding: .month, value: 1, to: cal.date(from: DateComponents(year: 2025, month: 1, day: 31))!)!)
    print(cal.date(byAdding: .year, value: 1, to: made)!)
    print(cal.date(byAdding: .day, value: -40, to: d)!)
    print(cal.date(byAdding: .hour, value: 5, to: d)!)
    print(cal.date(byAdding: DateComponents(month: 2, day: 3), to: d)!)
    print(cal.startOfDay(for: d))
    print(cal.isDate(d, inSameDayAs: d.addingTimeInterval(3600)), cal.isDate(d, inSameDayAs: d.addingTimeInterval(86400)))
    print(cal.isDateInWeekend(d))
    let start = cal.date(from: DateComponents(year: 2024, month: 1, day: 31, hour: 10))!
    let end = cal.date(from: DateComponents(year: 2025, month: 3, day: 1, hour: 9, minute: 30))!
    let diff = cal.dateComponents([.year, .month, .day, .hour, .minute], from: start, to: end)
    print(diff.year!, diff.month!, diff.day!, diff.hour!, diff.minute!)
    let days = cal.dateComponents([.day], from: end, to: start).day!
    print(days)
    let weekdays = (0..<7).map { cal.component(.weekday, from: d.addingTimeInterval(Double($0) * 86400)) }
    print(weekdays)
    let same = Calendar.current.component(.year, from: Date(timeIntervalSince1970: 0))
    print(same)
}
