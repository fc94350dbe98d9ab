let defaultSpacing = 8
let names = ["Ann", "Bob"]
var counter = 0
var log: [String] = []

func record(_ event: String) {
    counter += 1
    log.append("\(counter): \(event)")
}

func main() {
    print(defaultSpacing * 2)
    print(names.count)
    record("start")
    record("tap")
    record("stop")
    print(counter)
    for line in log {
        print(line)
    }
    counter = 100
    record("reset")
    print(log.last!)
}
