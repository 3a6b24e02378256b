import Testing
import TestKit
@testable import HealthCore

/// `Locked` is a struct over a box (issue 32): copies share one value, and the value is released with the last copy.
struct LockedTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: lockedTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private final class Tracked {}

    func copiesShareTheValue() {
        let first = Locked([String: Int]())
        let second = first
        second.withLock { $0["a"] = 1 }
        first["b"] = 2
        expectEqual(first.current, ["a": 1, "b": 2])
        expectEqual(second["a"], 1)
    }

    func theValueIsReleasedWithTheLastCopy() {
        weak var watched: Tracked?
        var copy: Locked<Tracked?>?
        do {
            let tracked = Tracked()
            watched = tracked
            let locked = Locked<Tracked?>(tracked)
            copy = locked
        }
        #expect(watched != nil)
        copy = nil
        expectNil(copy)
        expectNil(watched)
    }

    func aValueReplacedUnderTheLockIsReleased() {
        weak var watched: Tracked?
        let locked = Locked<Tracked?>(nil)
        do {
            let tracked = Tracked()
            watched = tracked
            locked.withLock { $0 = tracked }
        }
        #expect(watched != nil)
        locked.withLock { $0 = nil }
        expectNil(watched)
    }
}

/// The checks ``LockedTests/checks(_:)`` runs.
private let lockedTestsChecks: [Check<LockedTests>] = [
    Check("copiesShareTheValue", LockedTests.copiesShareTheValue),
    Check("theValueIsReleasedWithTheLastCopy", LockedTests.theValueIsReleasedWithTheLastCopy),
    Check("aValueReplacedUnderTheLockIsReleased", LockedTests.aValueReplacedUnderTheLockIsReleased),
]
