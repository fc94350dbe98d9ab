struct Config {
    var endpoint: String!
    var retries: Int!
}

func main() {
    var c = Config(endpoint: "api", retries: 3)
    let e: String = c.endpoint
    print(e)
    print(c.retries + 1)
    print(c.endpoint.count)
    c.endpoint = nil
    print(c.endpoint == nil)
    print(c.endpoint as Any)
    if let e = c.endpoint {
        print("has", e)
    } else {
        print("no endpoint")
    }
    let value: Int! = 10
    let copy = value
    print(copy as Any)
    let doubled: Int = value * 2
    print(doubled)
}
