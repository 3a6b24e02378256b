import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// The store's uuid text is Foundation's `uuidString`, lowercased.
struct UUIDTextTests {
    @Test func matchesFoundationsLowercasedString() throws {
        let fixed = ["00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
                     "0A1B2C3D-4E5F-6A7B-8C9D-AEBFCDEF0189"].compactMap(UUID.init(uuidString:))
        expectEqual(fixed.count, 3)
        for uuid in fixed + (0..<2_000).map({ _ in UUID() }) {
            expectEqual(uuid.lowercasedText, uuid.uuidString.lowercased())
        }
    }
}
