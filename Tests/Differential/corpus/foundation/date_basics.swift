import Foundation

struct Event {
    let name: String
    let at: Date
}

func main() {
    let d = Date(timeIntervalSince1970: 1795855580.75)
    print(d)
    print([d])
    let maybe: Date? = d
    print(maybe as Any)
    print("at \(d)")
    print(d.timeIntervalSince1970)
    print(d.timeIntervalSinceReferenceDate)
    print(Date(timeIntervalSince1970: 0.1).timeIntervalSince1970)
    print(Date(timeIntervalSince1970: -1.5))
    let later = d + 3600
    print(later)
    print(later.timeIntervalSince(d))
    print(d.addingTimeInterval(-86400))
    print(later > d, later < d, later == d, d == Date(timeIntervalSince1970: 1795855580.75))
    var m = d
    m += 60
    m.addTimeInterval(1)
    print(m)
    print(d.distance(to: later), d.advanced(by: 30))
    print(Date(timeIntervalSinceReferenceDate: 0))
    print(Date.distantFuture)
    print(Date.distantPast.timeIntervalSince1970, Date.distantFuture.timeIntervalSince1970)
    let events = [Event(name: "b", at: later), Event(name: "a", at: d)]
    for e in events.sorted(by: { $0.at < $1.at }) { print(e.name, e.at) }
    print(events.map(\.at).max()!)
    print(String(describing: d), d.description)
    print(d.ISO8601Format())
}
