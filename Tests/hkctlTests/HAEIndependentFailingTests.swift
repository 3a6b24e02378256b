import Foundation
import Testing

/// Independent Health Auto Export checks that fail on the current build: each is a bug written up in
/// /work/notes/haetest-bugs.md (the input, what hkctl does, what should happen). Disabled so the branch stays green;
/// enable one when its bug is fixed. None is left: all were fixed on s13-integration and moved to HAEIndependentTests.
struct HAEIndependentFailingTests {
    typealias H = HAEIndependent
}
