import Foundation
import HealthCore
import HKCtlSupport
@_exported import TestKit

/// Builders for the tests of hkctl's renderers, which draw samples held in an ``InMemorySampleStore`` (the shared
/// ones are TestKit's).
extension TestSupport {
    static func context(_ zone: String = "UTC", now: Date = EntryTestKit.referenceNow) -> TimeContext {
        guard let rules = ZoneDatabase.system(environment: [:]).zone(named: zone) else { fatalError("no zone \(zone): install tzdata") }
        return TimeContext(now: now, timeZone: rules)
    }
}

extension SampleType {
    static let water = try! SampleTypeCatalogue.standard.type(named: "water")
    static let steps = try! SampleTypeCatalogue.standard.type(named: "steps")
    static let weight = try! SampleTypeCatalogue.standard.type(named: "weight")
    static let sleep = try! SampleTypeCatalogue.standard.type(named: "sleep")
}

/// Dates and zones for the tests of hkctl's entry parsers: the shared kit.
typealias EntryTestKit = IndependentTestKit
