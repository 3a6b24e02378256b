import Foundation
import Testing
import TestKit
@testable import HealthCore

/// What `doctor` calls implausible in a well-formed sample.
struct PlausibilityRulesTests {
    static let now = Date(timeIntervalSince1970: 1_716_000_000)

    /// A stand hour lasts an hour; a day's count of them that Health Auto Export sends is kept as written (which hours
    /// is not said), over the day, and is not a stand hour that lasts too long.
    @Test func aRecordKeptAsWrittenIsNotHeldToItsTypesLimits() throws {
        let type = try #require(SampleTypeCatalogue.standard.type(identifier: "HKCategoryTypeIdentifierAppleStandHour"))
        let start = Self.now.addingTimeInterval(-2 * 86_400)
        let kept = Sample(typeIdentifier: type.identifier, start: start, end: start.addingTimeInterval(86_400),
                          value: .generic(value: "{\"qty\":15}", unit: "count"), source: "Health Auto Export", created: Self.now)
        #expect(PlausibilityRules().problems(with: kept, type: type, now: Self.now).isEmpty)
        var typed = kept
        typed.value = .category(0)
        expectEqual(PlausibilityRules().problems(with: typed, type: type, now: Self.now).first?.contains("lasts 24 hours"), true)
        // A record kept as written that ends years ahead is still said.
        var ahead = kept
        ahead.end = Self.now.addingTimeInterval(3 * 365 * 86_400)
        expectEqual(PlausibilityRules().problems(with: ahead, type: type, now: Self.now).count, 1)
    }
}
