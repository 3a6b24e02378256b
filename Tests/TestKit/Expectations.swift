import Testing

// `#expect(a == b)` expands, in every test, into a generic call with a closure for `==` that the type checker solves
// anew: measured on this machine, the suite's 3,942 such expectations were a third of the test modules' compile
// (BENCHMARKS.md, "Session 23"). These two functions check the same with one ordinary generic call each. A failure is
// recorded as an issue at the caller's line that names both values (and, for text of several lines, the lines that
// differ); it does not repeat the expression's source text as the macro does. `#expect` stays for everything else
// (`&&`, `<`, calls, `throws:`) and where a failure's message matters most (the snapshots).

/// Records an issue unless `actual == expected`, naming both values (and `comment`, if any).
public func expectEqual<Value: Equatable>(_ actual: Value, _ expected: Value, _ comment: @autoclosure () -> Comment? = nil,
                                          sourceLocation: SourceLocation = #_sourceLocation) {
    guard actual != expected else { return }
    var what = "\(String(reflecting: actual)) is not equal to \(String(reflecting: expected))"
    if let actual = actual as? String, let expected = expected as? String { what += lineDifference(actual, expected) }
    Issue.record(Comment(rawValue: failure(what, comment())), sourceLocation: sourceLocation)
}

/// Records an issue unless `value` is `nil`, naming the value it has (and `comment`, if any).
public func expectNil<Wrapped>(_ value: Wrapped?, _ comment: @autoclosure () -> Comment? = nil,
                               sourceLocation: SourceLocation = #_sourceLocation) {
    guard value != nil else { return }
    // As an optional: a nested optional that holds nil reads `Optional(nil)`, not `nil`.
    Issue.record(Comment(rawValue: failure("\(String(reflecting: value)) is not nil", comment())),
                 sourceLocation: sourceLocation)
}

private func failure(_ what: String, _ comment: Comment?) -> String {
    guard let comment else { return "Expectation failed: \(what)" }
    return "Expectation failed: \(what): \(comment.rawValue)"
}

/// For text of several lines: the lines `actual` has that `expected` lacks (`+`), and those it lacks (`-`).
private func lineDifference(_ actual: String, _ expected: String) -> String {
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    guard actualLines.count > 1 || expectedLines.count > 1 else { return "" }
    let changes = actualLines.difference(from: expectedLines).map { change -> String in
        switch change {
        case let .insert(offset, line, _): return "+ line \(offset + 1): \(line)"
        case let .remove(offset, line, _): return "- line \(offset + 1): \(line)"
        }
    }
    return "\n" + changes.joined(separator: "\n")
}
