struct Version: Comparable {
    let major: Int
    let minor: Int

    static func < (lhs: Version, rhs: Version) -> Bool {
        if lhs.major != rhs.major { return lhs.major < rhs.major }
        return lhs.minor < rhs.minor
    }
}

func main() {
    let versions = [Version(major: 2, minor: 0), Version(major: 1, minor: 9), Version(major: 1, minor: 10), Version(major: 0, minor: 1)]
    let sorted = versions.sorted()
    print(sorted.map { "\($0.major).\($0.minor)" })
    print(versions.max().map { "\($0.major).\($0.minor)" } ?? "")
    print(versions.min()!.minor)
    let a = Version(major: 1, minor: 2)
    let b = Version(major: 1, minor: 3)
    print(a < b, a > b, a <= b, a >= b, a == b)
    print(a == Version(major: 1, minor: 2))
    print(versions.sorted(by: >).first!.major)
    print(max(a, b).minor, min(a, b).minor)
}

