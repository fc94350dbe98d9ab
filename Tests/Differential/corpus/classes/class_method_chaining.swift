class QueryBuilder {
    private var parts: [String] = []

    @discardableResult
    func select(_ fields: String...) -> QueryBuilder {
        parts.append("SELECT " + fields.joined(separator: ", "))
        return self
    }

    @discardableResult
    func from(_ table: String) -> QueryBuilder {
        parts.append("FROM \(table)")
        return self
    }

    @discardableResult
    func whereClause(_ cond: String) -> QueryBuilder {
        parts.append("WHERE \(cond)")
        return self
    }

    func build() -> String { parts.joined(separator: " ") }
}

func main() {
    let q = QueryBuilder().select("id", "name").from("users").whereClause("age > 3")
    print(q.build())
    let q2 = QueryBuilder()
    q2.select("*")
    q2.from("logs")
    print(q2.build())
    print(q === q2)
}
