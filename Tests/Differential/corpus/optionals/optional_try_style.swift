enum ParseError: Error {
    case empty
    case bad(String)
}

func parse(_ s: String) throws -> Int {
    if s.isEmpty { throw ParseError.empty }
    guard let n = Int(s) else { throw ParseError.bad(s) }
    return n
}

func main() {
    print((try? parse("12")) as Any)
    print((try? parse("")) as Any)
    print((try? parse("zz")) ?? -1)
    do {
        let n = try parse("oops")
        print(n)
    } catch ParseError.bad(let text) {
        print("bad input", text)
    } catch {
        print("other", error)
    }
    do {
        _ = try parse("")
    } catch {
        print("caught", error)
    }
}
