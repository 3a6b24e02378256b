import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// Values placed into a suggested command are one shell word each and run nothing when pasted (issue 20, item 9).
struct ShellQuotingTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: shellQuotingTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let hostile = [
        "x; touch /tmp/pwned #", "a'b", "'", "''", "$(id)", "`id`", "a b", "a\tb", "a\nb", "*", "~root", "!!",
        "x && y", "-n", "\\", "\"", "José’s iPhone", "Jose\u{00A0}Phone", "日本", "a=b c", "${HOME}", "|", "&", "#",
    ]

    func plainWordsStayUnquotedAndEverythingElseIsSingleQuoted() {
        expectEqual(ShellQuoting.quote("scale-sync"), "scale-sync")
        expectEqual(ShellQuoting.quote("HKQuantityTypeIdentifierStepCount"), "HKQuantityTypeIdentifierStepCount")
        expectEqual(ShellQuoting.quote(""), "''")
        expectEqual(ShellQuoting.quote("x; touch /tmp/pwned #"), "'x; touch /tmp/pwned #'")
        expectEqual(ShellQuoting.quote("a'b"), "'a'\\''b'")
    }

    /// Each value, quoted and pasted into `sh -c`, comes back as exactly one argument, unchanged.
    func aPOSIXShellReadsEachQuotedValueBackAsOneUnchangedWord() throws {
        let script = "printf '%s\\0' " + Self.hostile.map(ShellQuoting.quote).joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        expectEqual(process.terminationStatus, 0)
        let words = data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        expectEqual(words, Self.hostile)
    }
}

/// The checks ``ShellQuotingTests/checks(_:)`` runs.
private let shellQuotingTestsChecks: [Check<ShellQuotingTests>] = [
    Check("plainWordsStayUnquotedAndEverythingElseIsSingleQuoted",
          ShellQuotingTests.plainWordsStayUnquotedAndEverythingElseIsSingleQuoted),
    Check("aPOSIXShellReadsEachQuotedValueBackAsOneUnchangedWord",
          ShellQuotingTests.aPOSIXShellReadsEachQuotedValueBackAsOneUnchangedWord),
]
