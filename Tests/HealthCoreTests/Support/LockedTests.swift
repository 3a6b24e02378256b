import Testing
import TestKit
@testable import HealthCore

/// `Locked` is a struct over a box (issue 32): copies share one value, and the value is released with the last copy.
struct LockedTests {
    private final class Tracked {}

    @Test func copiesShareTheValue() {
        let first = Locked([String: Int]())
        let second = first
        second.withLock { $0["a"] = 1 }
        first["b"] = 2
        expectEqual(first.current, ["a": 1, "b": 2])
        expectEqual(second["a"], 1)
    }

    @Test func theValueIsReleasedWithTheLastCopy() {
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

    @Test func aValueReplacedUnderTheLockIsReleased() {
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
