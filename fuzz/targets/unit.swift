// Fuzz target: the unit grammar and the amount parser, for every catalogue type.
import Foundation


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
