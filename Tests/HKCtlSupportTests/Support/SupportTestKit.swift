import HealthCore
@_exported import TestKit

/// The catalogue's types the HKCtlSupport tests use (numbers, dates, samples and folders are TestKit's).
extension SampleType {
    static let water = try! SampleTypeCatalogue.standard.type(named: "water")
    static let steps = try! SampleTypeCatalogue.standard.type(named: "steps")
    static let weight = try! SampleTypeCatalogue.standard.type(named: "weight")
    static let sleep = try! SampleTypeCatalogue.standard.type(named: "sleep")
}
