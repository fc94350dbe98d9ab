func main() {
    let a = """

    first empty
    """
    print("[\(a)]")
    let b = """
    last empty

    """
    print("[\(b)]")
    let c = """
    \(1) start
        \(2) indented
    end \(3)
    """
    print("[\(c)]")
    let d = """
      
    spaces line above
    """
    print("[\(d)]")
    let e = """
    """
    print("[\(e)]")
    let f = """
    tab\tand \u{41} and \\ and \"q\"
    """
    print("[\(f)]")
    let g = """
    x \""" y
    """
    print(g)
    let h = """
    one \
    two \
    three
    """
    print(h, h.count)
}
