var counter = 0
var log: [String] = []
let limit = 3
func bump() -> Int {
    counter += 1
    log.append("bump \(counter)")
    return counter
}
func main() {
    print(counter)
    while bump() < limit {}
    print(counter, log)
}
