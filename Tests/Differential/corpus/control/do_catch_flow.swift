enum ValidationError: Error {
    case tooShort(Int)
    case missingDigit
}

func validate(_ s: String) throws -> String {
    if s.count < 4 { throw ValidationError.tooShort(s.count) }
    if !s.contains(where: { $0.isNumber }) { throw ValidationError.missingDigit }
    return "valid: \(s)"
}

func main() {
    for input in ["ab", "abcd", "abc1"] {
        do {
            let r = try validate(input)
            print(r)
        } catch ValidationError.tooShort(let n) {
            print("too short:", n)
        } catch {
            print("error:", error)
        }
    }
    let results = ["x1yz", "no"].map { try? validate($0) }
    print(results)
    var attempts = 0
    while attempts < 3 {
        attempts += 1
        if (try? validate(String(repeating: "a", count: attempts) + "1")) != nil { break }
    }
    print("attempts", attempts)
}
