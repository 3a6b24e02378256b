// Fuzz target: the unit grammar and the amount parser, for every catalogue type.
import Foundation
#if !HKCTL_FUZZ_ONE_MODULE
// The test suite's smoke (fuzz/smoke) compiles this harness in a test target of its own; `fuzz/run` compiles it
// inside HealthCore's module (-D HKCTL_FUZZ_ONE_MODULE), where these modules are the module itself.
@testable import HealthCore
import HKCtlSupport
#endif


func fuzzUnit(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    if let unit = try? HealthUnit(parsing: text) {
        // A parsed unit's canonical spelling parses to the same unit.
        guard let again = try? HealthUnit(parsing: unit.unitString), again.isCompatible(with: unit) else {
            fatalError("'\(unit.unitString)' does not parse back")
        }
    }
    for type in SampleTypeCatalogue.standard.types.prefix(8) {
        _ = try? QuantityInput.parse(text, for: type)
    }
    return 0
}
