import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Type lookup by short name, identifier or unprefixed identifier, in any case, without a name dictionary.
struct CatalogueLookupTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: catalogueLookupTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private let catalogue = SampleTypeCatalogue.standard

    func theStandardCatalogueHasNoNameTwice() {
        #expect(catalogue.duplicateNames.isEmpty)
    }

    func duplicateNamesAreFound() {
        let twice = SampleTypeCatalogue([.water, .steps, .water])
        expectEqual(Set(twice.duplicateNames), ["water", "hkquantitytypeidentifierdietarywater", "dietarywater"])
    }

    func everyTypeAnswersToEachOfItsNamesInAnyCase() throws {
        for type in catalogue.types {
            for name in [type.name, type.identifier, type.shortIdentifier] {
                for spelling in [name, name.uppercased(), name.lowercased()] {
                    try expectEqual(catalogue.type(named: spelling), type, "\(spelling)")
                    expectEqual(catalogue.type(identifier: spelling), type, "\(spelling)")
                }
            }
        }
    }

    @Test(arguments: ["", "wat", "waterx", "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifierDietaryWater",
                      "DietaryWaterX", "HKQuantityTypeIdentifierDietaryWate", "wäter", "日本"])
    func unknownNamesAreNotFound(text: String) {
        expectNil(catalogue.type(identifier: text))
        #expect(throws: SampleError.self) { try catalogue.type(named: text) }
    }

    func unicodeLowercasingStillApplies() throws {
        // The Kelvin sign lower-cases to an ASCII "k", as the old lower-cased dictionary keys did.
        try expectEqual(catalogue.type(named: "wal\u{212A}ing-heart-rate").name, "walking-heart-rate")
    }

    func onlyHealthKitPrefixesAreDropped() {
        let odd = SampleType.quantity("XXQuantityTypeIdentifierThing", name: "odd", title: "Thing",
                                      aggregation: .cumulative, unit: "count", display: nil, examples: ["1"],
                                      validRange: 0...1)
        let mine = SampleTypeCatalogue([odd])
        expectEqual(mine.type(identifier: "odd")?.identifier, "XXQuantityTypeIdentifierThing")
        expectEqual(mine.type(identifier: "xxquantitytypeidentifierthing")?.identifier, "XXQuantityTypeIdentifierThing")
        expectNil(mine.type(identifier: "Thing"))
    }

    func characteristicsAreNotSampleTypes() {
        #expect(throws: CharacteristicError.notASampleType("blood-type")) { try catalogue.type(named: "BloodType") }
    }
}

/// The checks ``CatalogueLookupTests/checks(_:)`` runs.
private let catalogueLookupTestsChecks: [Check<CatalogueLookupTests>] = [
    Check("theStandardCatalogueHasNoNameTwice", CatalogueLookupTests.theStandardCatalogueHasNoNameTwice),
    Check("duplicateNamesAreFound", CatalogueLookupTests.duplicateNamesAreFound),
    Check("everyTypeAnswersToEachOfItsNamesInAnyCase", CatalogueLookupTests.everyTypeAnswersToEachOfItsNamesInAnyCase),
    Check("unicodeLowercasingStillApplies", CatalogueLookupTests.unicodeLowercasingStillApplies),
    Check("onlyHealthKitPrefixesAreDropped", CatalogueLookupTests.onlyHealthKitPrefixesAreDropped),
    Check("characteristicsAreNotSampleTypes", CatalogueLookupTests.characteristicsAreNotSampleTypes),
]
