import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// Issue 20, item 12: output arithmetic on values near the largest Double never traps.
struct SaturatingTests {
    @Test func doublesBeyondIntsRangeClampInsteadOfTrapping() {
        expectEqual(Int(saturating: 1e308), .max)
        expectEqual(Int(saturating: -1e308), .min)
        expectEqual(Int(saturating: .infinity), .max)
        expectEqual(Int(saturating: -.infinity), .min)
        expectEqual(Int(saturating: .nan), 0)
        expectEqual(Int(saturating: 9.2233720368547748e18), .max)
        expectEqual(Int(saturating: 42.9), 42)
        expectEqual(Int(saturating: -42.9), -42)
    }
}
