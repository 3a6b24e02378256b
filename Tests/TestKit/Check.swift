import Testing

// The `@Test` macro costs the debug build about 0.1 s of CPU for every function it marks (the code it writes is parsed,
// type-checked and compiled twice: once for the module, once for the object file), and the suite had 1,519 of them,
// about a fifth of `swift test`'s build (BENCHMARKS.md, "Session 26"). A case of a parameterized test costs a tenth
// of that. So a suite's checks are plain methods, listed at the end of their file, and one `@Test(arguments:)` per
// suite runs each of them as a case (README.md, "Development").

/// One check of a suite: a method that a suite's single parameterized test runs as one of its cases.
///
/// Each case runs on a fresh instance of the suite, as a `@Test` method would, and the cases run in parallel unless
/// the suite is `.serialized`. A failure names the check (`check → aCheckName`) and the line of the expectation
/// that failed.
public struct Check<Suite>: @unchecked Sendable, CustomTestStringConvertible {
    // `@unchecked`: `body` is an unapplied method reference, `Suite.method`, which captures nothing.
    /// The method's name, shown as the case's name.
    public let name: String
    private let body: (Suite) -> () async throws -> Void

    /// A check that calls `body` (a method reference such as `MySuite.aRuleHolds`) on the suite's instance.
    public init(_ name: String, _ body: @escaping (Suite) -> () async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the check on `suite`.
    public func run(on suite: Suite) async throws {
        try await body(suite)()
    }

    public var testDescription: String { name }
}
