import Foundation
import Testing
@testable import HealthCore
import TextSupport

/// Issue 20, item 12: output arithmetic on values near the largest Double never traps.
struct SaturatingTests {
    @Test func doublesBeyondIntsRangeClampInsteadOfTrapping() {
        #expect(Int(saturating: 1e308) == .max)
        #expect(Int(saturating: -1e308) == .min)
        #expect(Int(saturating: .infinity) == .max)
        #expect(Int(saturating: -.infinity) == .min)
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: 9.2233720368547748e18) == .max)
        #expect(Int(saturating: 42.9) == 42)
        #expect(Int(saturating: -42.9) == -42)
    }
}
