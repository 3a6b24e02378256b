import Foundation
import Testing
import TestKit
@testable import HealthCore

/// An import adds the characteristics a store lacks and keeps those it has unless told to replace them (issue 22).
struct CharacteristicsMergeTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: characteristicsMergeTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static func me(birth: String? = nil, sex: BiologicalSex? = nil, blood: BloodType? = nil, skin: FitzpatrickSkinType? = nil,
                           generic: [String: String]? = nil) -> Characteristics {
        var me = Characteristics()
        me.dateOfBirth = birth
        me.biologicalSex = sex
        me.bloodType = blood
        me.skinType = skin
        me.generic = generic
        return me
    }

    private static let wheelchair = "HKCharacteristicTypeIdentifierWheelchairUse"

    func differencesKeepTheStoresValueAndMissingOnesAreAdded() {
        let stored = Self.me(birth: "1988-04-02", blood: .aPositive, generic: [Self.wheelchair: "HKWheelchairUseNo"])
        let imported = Self.me(birth: "1988-04-02", sex: .female, blood: .bPositive, skin: .typeIII,
                               generic: [Self.wheelchair: "HKWheelchairUseYes"])
        let merge = CharacteristicsMerge(stored: stored, imported: imported, replace: false)
        expectEqual(merge.entries.map(\.key), ["date-of-birth", "biological-sex", "blood-type", "skin-type", Self.wheelchair])
        expectEqual(merge.entries.map(\.outcome), [.unchanged, .added, .kept, .added, .kept])
        expectEqual(merge.entries[2], CharacteristicsMerge.Entry(key: "blood-type", stored: "A+", imported: "B+", outcome: .kept))
        expectNil(merge.entries[1].stored)
        expectEqual(merge.result, Self.me(birth: "1988-04-02", sex: .female, blood: .aPositive, skin: .typeIII,
                                          generic: [Self.wheelchair: "HKWheelchairUseNo"]))
        #expect(merge.changesStore)
        expectEqual(merge.entries(.kept).map(\.key), ["blood-type", Self.wheelchair])
    }

    func replacingTakesTheExportsValues() {
        let stored = Self.me(birth: "1990-01-01", sex: .male, blood: .aPositive, skin: .typeII, generic: ["HKOther": "x"])
        let imported = Self.me(birth: "1988-04-02", blood: .aPositive, skin: .typeV, generic: [Self.wheelchair: "HKWheelchairUseYes"])
        let merge = CharacteristicsMerge(stored: stored, imported: imported, replace: true)
        expectEqual(merge.entries.map(\.outcome), [.replaced, .unchanged, .replaced, .added])
        // What the export does not hold stays as it was.
        expectEqual(merge.result, Self.me(birth: "1988-04-02", sex: .male, blood: .aPositive, skin: .typeV,
                                          generic: ["HKOther": "x", Self.wheelchair: "HKWheelchairUseYes"]))
    }

    func anExportWithoutCharacteristicsOrTheSameOnesChangesNothing() {
        let stored = Self.me(birth: "1988-04-02", sex: .other)
        for replace in [false, true] {
            let empty = CharacteristicsMerge(stored: stored, imported: Characteristics(), replace: replace)
            #expect(empty.entries.isEmpty)
            expectEqual(empty.result, stored)
            #expect(!empty.changesStore)
            let same = CharacteristicsMerge(stored: stored, imported: stored, replace: replace)
            expectEqual(same.entries.map(\.outcome), [.unchanged, .unchanged])
            #expect(!same.changesStore)
        }
    }

    func intoAnEmptyStoreEverythingIsAdded() {
        let imported = Self.me(birth: "1988-04-02", sex: .female, blood: .oNegative, skin: .typeVI)
        let merge = CharacteristicsMerge(stored: Characteristics(), imported: imported, replace: false)
        #expect(merge.entries.allSatisfy { $0.outcome == .added })
        expectEqual(merge.result, imported)
    }
}

extension ImportTests {
    /// `HealthImporter` applies ``CharacteristicsMerge`` to the store's `characteristics.json`.
    struct CharacteristicsImportTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: characteristicsImportTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private typealias Support = ImportTestSupport

        /// The test export's `Me`: 1988-04-02, female, A+, skin type not set.
        private func run(_ store: JSONFileStore, dryRun: Bool = false, replace: Bool = false) throws -> ImportReceipt {
            try Support.withTemporaryDirectory { folder in
                let path = try Support.write(Support.export(Support.record()), in: folder)
                let importer = HealthImporter(store: store, dryRun: dryRun, replaceCharacteristics: replace)
                return try importer.importFile(atPath: path)
            }
        }

        private func file(_ store: JSONFileStore) -> Data? {
            FileManager.default.contents(atPath: store.path + "/characteristics.json")
        }

        func theStoresDifferingValuesAreKeptAndReported() throws {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                try store.updateDocument("characteristics.json", initial: Characteristics()) {
                    $0.bloodType = .oNegative
                    $0.skinType = .typeII
                }
                let receipt = try run(store)
                expectEqual(receipt.characteristicResults.map(\.outcome), [.added, .added, .kept])
                expectEqual(receipt.characteristicResults.last, .init(key: "blood-type", stored: "O-", imported: "A+", outcome: .kept))
                let me = try store.document("characteristics.json", default: Characteristics())
                #expect(me.bloodType == .oNegative && me.skinType == .typeII && me.dateOfBirth == "1988-04-02" && me.biologicalSex == .female)
                let again = try run(store)
                expectEqual(again.characteristicResults.map(\.outcome), [.unchanged, .unchanged, .kept])
                let replaced = try run(store, replace: true)
                expectEqual(replaced.characteristicResults.map(\.outcome), [.unchanged, .unchanged, .replaced])
                try expectEqual(store.document("characteristics.json", default: Characteristics()).bloodType, .aPositive)
            }
        }

        func aDryRunComparesWithoutWriting() throws {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                try store.updateDocument("characteristics.json", initial: Characteristics()) { $0.bloodType = .oNegative }
                let before = file(store)
                for replace in [false, true] {
                    let receipt = try run(store, dryRun: true, replace: replace)
                    expectEqual(receipt.characteristicResults.map(\.outcome), [.added, .added, replace ? .replaced : .kept])
                    expectEqual(file(store), before)
                }
            }
        }

        func anImportThatChangesNoCharacteristicLeavesTheFileAlone() throws {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                _ = try run(store)
                let path = store.path + "/characteristics.json"
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: path)
                _ = try run(store, replace: true)
                let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
                expectEqual(modified, Date(timeIntervalSince1970: 0))
            }
        }
    }
}

/// The checks ``CharacteristicsMergeTests/checks(_:)`` runs.
private let characteristicsMergeTestsChecks: [Check<CharacteristicsMergeTests>] = [
    Check("differencesKeepTheStoresValueAndMissingOnesAreAdded",
          CharacteristicsMergeTests.differencesKeepTheStoresValueAndMissingOnesAreAdded),
    Check("replacingTakesTheExportsValues", CharacteristicsMergeTests.replacingTakesTheExportsValues),
    Check("anExportWithoutCharacteristicsOrTheSameOnesChangesNothing",
          CharacteristicsMergeTests.anExportWithoutCharacteristicsOrTheSameOnesChangesNothing),
    Check("intoAnEmptyStoreEverythingIsAdded", CharacteristicsMergeTests.intoAnEmptyStoreEverythingIsAdded),
]

/// The checks ``ImportTests.CharacteristicsImportTests/checks(_:)`` runs.
private let characteristicsImportTestsChecks: [Check<ImportTests.CharacteristicsImportTests>] = [
    Check("theStoresDifferingValuesAreKeptAndReported",
          ImportTests.CharacteristicsImportTests.theStoresDifferingValuesAreKeptAndReported),
    Check("aDryRunComparesWithoutWriting", ImportTests.CharacteristicsImportTests.aDryRunComparesWithoutWriting),
    Check("anImportThatChangesNoCharacteristicLeavesTheFileAlone",
          ImportTests.CharacteristicsImportTests.anImportThatChangesNoCharacteristicLeavesTheFileAlone),
]
