import Testing

// `#expect(a == b)` expands, in every test, into a generic call with a closure for `==` that the type checker solves
// anew: measured on this machine, the suite's 5,000 such expectations were a third of the test modules' compile
// (BENCHMARKS.md, "Session 23"). These two functions say the same with one ordinary generic call each, and report the
// two values the way the macro does. `#expect` stays for everything else (`&&`, `<`, calls, `throws:`).

/// Records an issue unless `actual == expected`, naming both values (and `comment`, if any).
public func expectEqual<Value: Equatable>(_ actual: Value, _ expected: Value, _ comment: @autoclosure () -> Comment? = nil,
                                          sourceLocation: SourceLocation = #_sourceLocation) {
    guard actual != expected else { return }
    Issue.record(Comment(rawValue: failure("\(String(reflecting: actual)) is not equal to \(String(reflecting: expected))",
                                           comment())),
                 sourceLocation: sourceLocation)
}

/// Records an issue unless `value` is `nil`, naming the value it has (and `comment`, if any).
public func expectNil<Wrapped>(_ value: Wrapped?, _ comment: @autoclosure () -> Comment? = nil,
                               sourceLocation: SourceLocation = #_sourceLocation) {
    guard let value else { return }
    Issue.record(Comment(rawValue: failure("\(String(reflecting: value)) is not nil", comment())),
                 sourceLocation: sourceLocation)
}

private func failure(_ what: String, _ comment: Comment?) -> String {
    guard let comment else { return "Expectation failed: \(what)" }
    return "Expectation failed: \(what): \(comment.rawValue)"
}
