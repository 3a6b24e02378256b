import Testing
import TestKit

/// TestKit's `expectEqual` and `expectNil` fail where `#expect(a == b)` and `#expect(x == nil)` fail, at the caller's
/// line, and say why.
@Suite struct ExpectationsTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: expectationsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static func messages(of issue: Issue) -> [String] { issue.comments.map(\.rawValue) }

    func equalValuesRecordNothingAndUnequalOnesNameBoth() {
        expectEqual([1, 2], [1, 2])
        withKnownIssue {
            expectEqual("steps", "water", "a comment")
        } matching: { issue in
            Self.messages(of: issue) == [#"Expectation failed: "steps" is not equal to "water": a comment"#]
        }
    }

    func nilRecordsNothingAndAValueIsNamed() {
        expectNil(Int?.none)
        withKnownIssue {
            expectNil(Optional(3), "a comment")
        } matching: { issue in
            Self.messages(of: issue) == ["Expectation failed: Optional(3) is not nil: a comment"]
        }
    }

    func aNestedOptionalHoldingNilIsNotNil() {
        let nested: Int?? = .some(nil)
        withKnownIssue {
            expectNil(nested)
        } matching: { issue in
            Self.messages(of: issue) == ["Expectation failed: Optional(nil) is not nil"]
        }
    }

    func anOptionalComparesWithAPlainValue() {
        let count: Int? = 2
        expectEqual(count, 2)
        withKnownIssue {
            expectEqual(count, nil)
        } matching: { issue in
            Self.messages(of: issue) == ["Expectation failed: Optional(2) is not equal to nil"]
        }
    }

    func textOfSeveralLinesNamesTheLinesThatDiffer() {
        withKnownIssue {
            expectEqual("date,steps\n2024-06-01,10\n", "date,steps\n2024-06-01,12\n")
        } matching: { issue in
            Self.messages(of: issue).first?.hasSuffix("\n- line 2: 2024-06-01,12\n+ line 2: 2024-06-01,10") == true
        }
    }

    func theIssueIsRecordedAtTheCallersLine() {
        let equalLine = #line + 2
        withKnownIssue {
            expectEqual(1, 2)
        } matching: { issue in
            issue.sourceLocation?.line == equalLine
        }
        let nilLine = #line + 2
        withKnownIssue {
            expectNil(Optional(1))
        } matching: { issue in
            issue.sourceLocation?.line == nilLine
        }
    }

    func theCommentIsBuiltOnlyOnFailure() {
        var built = 0
        func comment() -> Comment {
            built += 1
            return "built"
        }
        expectEqual(1, 1, comment())
        expectNil(Int?.none, comment())
        #expect(built == 0)
        withKnownIssue {
            expectEqual(1, 2, comment())
        }
        #expect(built == 1)
    }
}

/// The checks ``ExpectationsTests/checks(_:)`` runs.
private let expectationsTestsChecks: [Check<ExpectationsTests>] = [
    Check("equalValuesRecordNothingAndUnequalOnesNameBoth",
          ExpectationsTests.equalValuesRecordNothingAndUnequalOnesNameBoth),
    Check("nilRecordsNothingAndAValueIsNamed", ExpectationsTests.nilRecordsNothingAndAValueIsNamed),
    Check("aNestedOptionalHoldingNilIsNotNil", ExpectationsTests.aNestedOptionalHoldingNilIsNotNil),
    Check("anOptionalComparesWithAPlainValue", ExpectationsTests.anOptionalComparesWithAPlainValue),
    Check("textOfSeveralLinesNamesTheLinesThatDiffer", ExpectationsTests.textOfSeveralLinesNamesTheLinesThatDiffer),
    Check("theIssueIsRecordedAtTheCallersLine", ExpectationsTests.theIssueIsRecordedAtTheCallersLine),
    Check("theCommentIsBuiltOnlyOnFailure", ExpectationsTests.theCommentIsBuiltOnlyOnFailure),
]
