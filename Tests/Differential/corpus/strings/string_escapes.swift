func main() {
    print("tab:\tend")
    print("quote: \"q\"")
    print("backslash: \\")
    print("newline:\nnext")
    print("null char count:", "a\0b".count)
    print("unicode: \u{2665} \u{1F600}")
    print("single ' quote")
    let raw = #"raw \n "quoted" \(not)"#
    print(raw)
    let n = 5
    print(#"raw interp \#(n)"#)
    print("cr\rlf".count)
    print("\r\n".count)
    print(["a\tb"])
    print("\u{65}\u{301}")
}
