import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Characteristic types go in the same read sets as sample types, as `HKCharacteristicType` does in HealthKit: a source
/// reads a characteristic once the owner allows it, never writes one, and never stores a sample of one.
struct CharacteristicPermissionTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: characteristicPermissionTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")
    private static let app = "Step Tracker"

    /// A store whose owner has set a date of birth, a blood type and a biological sex; `body` gets the owner's
    /// store, the app's, and the folder.
    private static func withStore(_ body: (HealthStore, HealthStore, String) async throws -> Void) async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let owner = try HealthStore(directory: path, clock: { now })
            try owner.storage.updateDocument("characteristics.json", initial: Characteristics()) { me in
                try me.set("date-of-birth", to: "1988-04-02", now: now)
                try me.set("blood-type", to: "O+", now: now)
                try me.set("biological-sex", to: "female", now: now)
            }
            try await body(owner, try HealthStore(directory: path, source: app, clock: { now }), path)
        }
    }

    func aSourceReadsACharacteristicOnlyOnceTheOwnerAllowsIt() async throws {
        try await Self.withStore { owner, app, _ in
            // HealthKit's request, with sample and characteristic types in one Set<ObjectType>.
            let read: Set<ObjectType> = [QuantityType(.stepCount), CharacteristicType(.dateOfBirth),
                                         ObjectType.characteristicType(forIdentifier: .bloodType)!]
            try await app.requestAuthorization(toShare: [], read: read)
            try expectEqual(app.bloodType().bloodType, .notSet)
            #expect(#expect(throws: HealthError.self) { try app.dateOfBirthComponents() }?.code == .errorNoData)
            try await expectEqual(app.statusForAuthorizationRequest(toShare: [], read: read), .shouldRequest)

            try owner.decideAuthorization(for: Self.app, allow: true, share: [], read: read)
            // The same HealthStore sees the decision at once.
            try expectEqual(app.bloodType().bloodType, .oPositive)
            let birth = try app.dateOfBirthComponents()
            expectEqual([birth.year, birth.month, birth.day], [1988, 4, 2])
            // Not asked for, not allowed: still not set.
            try expectEqual(app.biologicalSex().biologicalSex, .notSet)
            try expectEqual(app.characteristics(), {
                var visible = Characteristics()
                visible.dateOfBirth = "1988-04-02"
                visible.bloodType = .oPositive
                return visible
            }())
            try await expectEqual(app.statusForAuthorizationRequest(toShare: [], read: read), .unnecessary)

            // Denied or revoked: not set again.
            try owner.decideAuthorization(for: Self.app, allow: false, share: [], read: [CharacteristicType(.bloodType)])
            try expectEqual(app.bloodType().bloodType, .notSet)
            try owner.revokeAuthorization(for: Self.app)
            #expect(#expect(throws: HealthError.self) { try app.dateOfBirthComponents() }?.code == .errorNoData)
            // The owner always reads everything.
            try expectEqual(owner.biologicalSex().biologicalSex, .female)
        }
    }

    func aCharacteristicKeptFromAnImportIsReadWithItsTypesPermission() async throws {
        try await Self.withStore { owner, app, _ in
            try owner.storage.updateDocument("characteristics.json", initial: Characteristics()) { me in
                me.generic = ["HKCharacteristicTypeIdentifierWheelchairUse": "HKWheelchairUseNo",
                              "HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse": "None"]
            }
            try expectNil(app.characteristics().generic)
            try owner.decideAuthorization(for: Self.app, allow: true, share: [], read: [CharacteristicType(.wheelchairUse)])
            try expectEqual(app.characteristics().generic, ["HKCharacteristicTypeIdentifierWheelchairUse": "HKWheelchairUseNo"])
            try expectEqual(owner.characteristics().generic?.count, 2)
        }
    }

    func aCharacteristicCannotBeSharedAndAskingChangesNothing() async throws {
        try await Self.withStore { owner, app, path in
            let before = TestSupport.walkFiles(path)
            // The store's calls take sample types to share, so a characteristic cannot be passed; the record refuses one.
            var state = try owner.authorizationDecisions()
            #expect(throws: AuthorizationError.cannotShare("blood-type")) {
                try state.request(source: Self.app, share: [CharacteristicType(.bloodType)], read: [], at: Self.now)
            }
            #expect(throws: AuthorizationError.cannotShare("blood-type")) {
                try state.decide(source: Self.app, allow: true, share: [CharacteristicType(.bloodType)], read: [], at: Self.now)
            }
            expectEqual(TestSupport.walkFiles(path), before)
        }
    }

    func aSampleOfACharacteristicTypeIsRefusedAndNothingIsWritten() async throws {
        try await Self.withStore { owner, _, path in
            let before = TestSupport.walkFiles(path)
            // A characteristic type is not a sample type (no QuantitySample can be made of one): a record names one.
            let sample = Sample(typeIdentifier: CharacteristicType(.bloodType).identifier, start: Self.now.addingTimeInterval(-60),
                                end: Self.now, value: .quantity(Quantity(unit: .count(), doubleValue: 1)), source: "",
                                created: Self.now)
            do {
                try await owner.save(HealthSample.of(sample))
                Issue.record("a sample of a characteristic type was saved")
            } catch let error as HealthError {
                expectEqual(error.code, .errorInvalidArgument)
                expectEqual(error.underlyingError as? SampleError, .characteristicHasNoSamples(type: "blood-type"))
            }
            // Nor does the file store keep one as a value of an unknown type.
            let kept = Sample(typeIdentifier: "HKCharacteristicTypeIdentifierBloodType", start: Self.now, end: Self.now,
                              value: .generic(value: "O+", unit: nil), source: "hkctl", created: Self.now)
            #expect(throws: SampleError.characteristicHasNoSamples(type: "blood-type")) { try owner.storage.save([kept]) }
            expectEqual(TestSupport.walkFiles(path), before)
        }
    }

    func aJSONLinesImportRejectsALineOfACharacteristicType() throws {
        try TestSupport.withTemporaryDirectory { folder in
            // A line as the store writes a value of a type it does not know.
            let kept = Sample(typeIdentifier: "HKCharacteristicTypeIdentifierBloodType", start: Self.now, end: Self.now,
                              value: .generic(value: "O+", unit: nil), source: "hkctl", created: Self.now)
            let line = SampleLineCodec(catalogue: .standard, timeZone: .gmt).encode(kept) + "\n"
            let path = folder + "/in.jsonl"
            try line.write(toFile: path, atomically: true, encoding: .utf8)
            let store = JSONFileStore(path: folder + "/store")
            let receipt = try HealthImporter(store: store).importFile(atPath: path)
            expectEqual(receipt.counts["HKCharacteristicTypeIdentifierBloodType"]?.rejected, 1, "\(receipt)")
            expectEqual(receipt.problems.first?.reason.contains("is a characteristic"), true)
            #expect(try store.samples(ofType: "HKCharacteristicTypeIdentifierBloodType",
                                      overlapping: DateInterval(start: .distantPast, end: .distantFuture)).isEmpty)
        }
    }

    func characteristicTypesAreLookedUpByEveryName() {
        expectEqual(SampleType.characteristicTypes.count, 6)
        #expect(SampleType.characteristicTypes.allSatisfy { $0.kind == .characteristic && $0.characteristicIdentifier != nil })
        expectEqual(CharacteristicType(.fitzpatrickSkinType).name, "skin-type")
        for name in ["blood-type", "HKCharacteristicTypeIdentifierBloodType", "BloodType", "bloodtype"] {
            expectEqual(SampleType.characteristicType(named: name)?.characteristicIdentifier, .bloodType, "\(name)")
        }
        expectNil(SampleType.characteristicType(named: "water"))
        expectNil(ObjectType.characteristicType(forIdentifier: CharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierNope")))
        expectNil(QuantityType(.stepCount).characteristicIdentifier)
        // The catalogue still refuses a characteristic where a sample type is wanted, by its name.
        #expect(throws: CharacteristicError.notASampleType("date-of-birth")) {
            try SampleTypeCatalogue.standard.type(named: "DateOfBirth")
        }
    }
}

/// The checks ``CharacteristicPermissionTests/checks(_:)`` runs.
private let characteristicPermissionTestsChecks: [Check<CharacteristicPermissionTests>] = [
    Check("aSourceReadsACharacteristicOnlyOnceTheOwnerAllowsIt",
          CharacteristicPermissionTests.aSourceReadsACharacteristicOnlyOnceTheOwnerAllowsIt),
    Check("aCharacteristicKeptFromAnImportIsReadWithItsTypesPermission",
          CharacteristicPermissionTests.aCharacteristicKeptFromAnImportIsReadWithItsTypesPermission),
    Check("aCharacteristicCannotBeSharedAndAskingChangesNothing",
          CharacteristicPermissionTests.aCharacteristicCannotBeSharedAndAskingChangesNothing),
    Check("aSampleOfACharacteristicTypeIsRefusedAndNothingIsWritten",
          CharacteristicPermissionTests.aSampleOfACharacteristicTypeIsRefusedAndNothingIsWritten),
    Check("aJSONLinesImportRejectsALineOfACharacteristicType",
          CharacteristicPermissionTests.aJSONLinesImportRejectsALineOfACharacteristicType),
    Check("characteristicTypesAreLookedUpByEveryName",
          CharacteristicPermissionTests.characteristicTypesAreLookedUpByEveryName),
]
