import Testing
import TestKit

/// TestKit's `expectEqual` and `expectNil` fail where `#expect(a == b)` and `#expect(x == nil)` fail, and say why.
@Suite struct ExpectationsTests {
    @Test func equalValuesRecordNothingAndUnequalOnesNameBoth() {
        expectEqual([1, 2], [1, 2])
        withKnownIssue {
            expectEqual("steps", "water", "a comment")
        } matching: { issue in
            issue.comments.map(\.rawValue) == [#"Expectation failed: "steps" is not equal to "water": a comment"#]
        }
    }

    @Test func nilRecordsNothingAndAValueIsNamed() {
        expectNil(Int?.none)
        withKnownIssue {
            expectNil(Optional(3))
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["Expectation failed: 3 is not nil"]
        }
    }

    @Test func anOptionalComparesWithAPlainValue() {
        let count: Int? = 2
        expectEqual(count, 2)
        withKnownIssue {
            expectEqual(count, nil)
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["Expectation failed: Optional(2) is not equal to nil"]
        }
    }
}
