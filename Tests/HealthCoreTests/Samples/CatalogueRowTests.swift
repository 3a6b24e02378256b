import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The catalogue makes a row into a type only when it is used, and a lookup answers as the previous definition did:
/// the first type, in table order, whose short name, identifier, or identifier without a HealthKit prefix is the
/// text, ignoring ASCII case.
struct CatalogueRowTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: catalogueRowTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private let standard = SampleTypeCatalogue.standard

    /// The previous definition of a lookup, over types made already: each type's names lowered.
    private static func reference(_ key: String, in types: [(type: SampleType, names: [String])]) -> SampleType? {
        let key = key.lowercased()
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return types.first { $0.names.contains(key) }?.type
    }

    private static func names(_ types: [SampleType]) -> [(type: SampleType, names: [String])] {
        types.map { type in
            var names = [type.name.lowercased(), type.identifier.lowercased()]
            if SampleType.identifierPrefixes.contains(where: type.identifier.hasPrefix),
               type.identifier.utf8.count > SampleType.identifierPrefixLength {
                names.append(String(decoding: names[1].utf8.dropFirst(SampleType.identifierPrefixLength), as: UTF8.self))
            }
            return (type, names)
        }
    }

    /// Every name of every standard type (the identifier in capitals), and near misses: one byte short or long, the
    /// other HealthKit prefix, a part of a prefix. (CatalogueLookupTests tries each name in three cases.)
    private func keys() -> [String] {
        var keys = ["", "HK", "HKQuantityTypeIdentifier", "hkcategorytypeidentifier", "HKQuantityTypeIdentifie",
                    "Identifier", "wal\u{212A}ing-heart-rate", "wäter"]
        for type in standard.types {
            keys += [type.name, type.identifier.uppercased(), type.shortIdentifier, type.name + "s",
                     String(type.identifier.dropLast()), "x" + type.shortIdentifier]
            let swapped = type.identifier.hasPrefix("HKQuantity")
                ? "HKCategory" + type.identifier.dropFirst(10) : "HKQuantity" + type.identifier.dropFirst(10)
            keys += [swapped, String(type.identifier.prefix(20)) + type.shortIdentifier]
        }
        return keys
    }

    func aLookupFindsWhatThePreviousDefinitionFound() throws {
        let types = Self.names(standard.types)
        let made = SampleTypeCatalogue(standard.types)
        for key in keys() {
            let expected = Self.reference(key, in: types)?.identifier
            expectEqual(standard.type(identifier: key)?.identifier, expected, "\(key)")
            expectEqual(made.type(identifier: key)?.identifier, expected, "\(key)")
            expectEqual((try? standard.type(named: key))?.identifier, expected, "\(key)")
        }
    }

    func aLookupMakesOnlyTheTypeItFinds() throws {
        let fresh = SampleTypeCatalogue(rows: standard.rows)
        expectEqual(fresh.madeCount, 0)
        try expectEqual(fresh.type(named: "water").identifier, "HKQuantityTypeIdentifierDietaryWater")
        expectEqual(fresh.type(identifier: "HKQuantityTypeIdentifierDietaryWater")?.name, "water")
        expectEqual(fresh.madeCount, 1)
        expectNil(fresh.type(identifier: "nothing-by-this-name"))
        #expect(throws: SampleError.self) { try fresh.type(named: "nothing-by-this-name") }
        expectEqual(fresh.madeCount, 1)
        expectEqual(fresh.types.count, standard.rows.count)
        expectEqual(fresh.madeCount, standard.rows.count)
    }

    func typesMadeOneByOneEqualTypesMadeTogether() throws {
        let together = SampleTypeCatalogue(rows: standard.rows).types
        let oneByOne = SampleTypeCatalogue(rows: standard.rows)
        // Backwards, so that each row parses its units against a different set of units parsed before.
        for expected in together.reversed() {
            let type = try #require(oneByOne.type(identifier: expected.identifier))
            #expect(type.identifier == expected.identifier && type.name == expected.name && type.title == expected.title)
            #expect(type.kind == expected.kind && type.aggregation == expected.aggregation)
            #expect(type.examples == expected.examples && type.categoryValues == expected.categoryValues)
            #expect(type.maximumDuration == expected.maximumDuration && type.validRange == expected.validRange)
            for (unit, other) in [(type.canonicalUnit, expected.canonicalUnit), (type.displayUnit, expected.displayUnit)] {
                #expect(unit?.unitString == other?.unitString && unit?.dimension == other?.dimension)
                #expect(unit?.factor == other?.factor && unit?.offset == other?.offset, "\(type.name)")
            }
        }
        expectEqual(oneByOne.types.map(\.identifier), together.map(\.identifier))
    }

    func eachRowsUnitsAreItsOwnUnitStrings() throws {
        for row in standard.rows {
            guard case let .quantity(_, unit, display, _) = row.details else { continue }
            let type = try #require(standard.type(identifier: row.prefix + row.suffix))
            #expect(type.canonicalUnit == (try HealthUnit(parsing: unit)), "\(row.name)")
            #expect(type.displayUnit == (try HealthUnit(parsing: display ?? unit)), "\(row.name)")
        }
    }

    func threadsLookingUpTogetherGetTheSameTypes() {
        let fresh = SampleTypeCatalogue(rows: standard.rows)
        let names = standard.rows.map(\.name)
        let found = Locked([String: Set<String>]())
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for name in names.shuffled() where (name.utf8.count + thread) % 2 == 0 || thread == 0 {
                let identifier = fresh.type(identifier: name)?.identifier ?? "?"
                found.withLock { _ = $0[name, default: []].insert(identifier) }
            }
        }
        expectEqual(found.current, Dictionary(uniqueKeysWithValues: standard.types.map { ($0.name, [$0.identifier]) }))
        expectEqual(fresh.madeCount, names.count)
    }

    func anIdentifierThatIsOnlyAPrefixIsMatchedWhole() {
        let odd = SampleType.quantity("HKQuantityTypeIdentifier", name: "odd", title: "Odd", aggregation: .cumulative,
                                      unit: "count", examples: ["1"])
        let mine = SampleTypeCatalogue([odd])
        expectEqual(mine.type(identifier: "hkquantitytypeidentifier")?.name, "odd")
        expectNil(mine.type(identifier: ""))
        expectNil(Self.reference("", in: Self.names([odd])))
    }

    /// A row reads its examples when its type is made (the table's list literals stay uninitialised until then), and
    /// they are the table's for a standard type, a quantity's and a category's alike, and a made type's own.
    func examplesAreTheTablesAndAMadeTypesOwn() throws {
        let fresh = SampleTypeCatalogue(rows: standard.rows)
        try expectEqual(fresh.type(named: "water").examples, ["500mL", "0.5L", "16.9fl_oz_us"])
        try expectEqual(fresh.type(named: "sleep").examples, ["23:10-07:05"])
        try expectEqual(fresh.type(named: "cycling-power").examples, ["200W"])
        let mine = SampleType.quantity("HKQuantityTypeIdentifierMine", name: "mine", title: "Mine",
                                       aggregation: .cumulative, unit: "count", examples: ["3", "4"])
        let made = SampleTypeCatalogue([mine])
        try expectEqual(made.type(named: "mine").examples, ["3", "4"])
        expectEqual(SampleTypeCatalogue(rows: made.rows).types.map(\.examples), [["3", "4"]])
    }
}

/// The checks ``CatalogueRowTests/checks(_:)`` runs.
private let catalogueRowTestsChecks: [Check<CatalogueRowTests>] = [
    Check("aLookupFindsWhatThePreviousDefinitionFound", CatalogueRowTests.aLookupFindsWhatThePreviousDefinitionFound),
    Check("aLookupMakesOnlyTheTypeItFinds", CatalogueRowTests.aLookupMakesOnlyTheTypeItFinds),
    Check("typesMadeOneByOneEqualTypesMadeTogether", CatalogueRowTests.typesMadeOneByOneEqualTypesMadeTogether),
    Check("eachRowsUnitsAreItsOwnUnitStrings", CatalogueRowTests.eachRowsUnitsAreItsOwnUnitStrings),
    Check("threadsLookingUpTogetherGetTheSameTypes", CatalogueRowTests.threadsLookingUpTogetherGetTheSameTypes),
    Check("anIdentifierThatIsOnlyAPrefixIsMatchedWhole", CatalogueRowTests.anIdentifierThatIsOnlyAPrefixIsMatchedWhole),
    Check("examplesAreTheTablesAndAMadeTypesOwn", CatalogueRowTests.examplesAreTheTablesAndAMadeTypesOwn),
]
