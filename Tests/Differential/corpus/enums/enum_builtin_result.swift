enum NetError: Error {
    case offline
    case status(Int)
}

func fetch(_ code: Int) -> Result<String, NetError> {
    switch code {
    case 200: return .success("body")
    case 0: return .failure(.offline)
    default: return .failure(.status(code))
    }
}

func main() {
    for code in [200, 0, 500] {
        switch fetch(code) {
        case .success(let body):
            print("ok", body)
        case .failure(.offline):
            print("offline")
        case .failure(.status(let s)):
            print("status", s)
        }
    }
    let mapped = fetch(200).map { $0.count }
    if case .success(let n) = mapped {
        print("length", n)
    }
    print((try? fetch(200).get()) as Any)
    print((try? fetch(0).get()) as Any)
}
