func report(name: String, count: Int) -> String {
    return """
    Report for \(name)
      items: \(count)
    done
    """
}

func main() {
    print(report(name: "Canopy", count: 3))
    let poem = """
        indented
      less
    base
    """
    print(poem)
    let withQuotes = """
    He said "hi" and \"""left\"""
    """
    print(withQuotes)
    let continued = """
    one \
    line
    """
    print(continued)
    print("""
    a
    """.count)
}
