func main() {
    let scores: [String: Int?] = ["ann": 3, "bob": nil]
    let ann = scores["ann"]
    let bob = scores["bob"]
    let cat = scores["cat"]
    print(ann as Any, bob as Any, cat as Any)
    print(bob == nil, cat == nil)
    for key in ["ann", "bob", "cat"] {
        switch scores[key] {
        case .some(.some(let v)):
            print(key, "has", v)
        case .some(.none):
            print(key, "present but nil")
        case .none:
            print(key, "absent")
        }
    }
    let values: [Int?] = [nil, 2]
    let first = values.first
    print(first as Any)
    print(values.first! == nil)
    let empty: [Int?] = []
    print(empty.first as Any)
    print(values.last as Any)
}
