import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Status transitions and enforcement of per-source permissions.
struct AuthorizationStateTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: authorizationStateTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    let now = TestSupport.referenceNow

    func everyTypeStartsNotDeterminedAndTheOwnerMayDoAnything() throws {
        let state = AuthorizationState()
        expectEqual(state.shareStatus(source: "app", type: SampleType.water.identifier), .notDetermined)
        expectEqual(state.shareStatus(source: "hkctl", type: SampleType.water.identifier), .sharingAuthorized)
        #expect(state.mayRead(source: "hkctl", type: SampleType.steps.identifier))
        #expect(!state.mayRead(source: "app", type: SampleType.steps.identifier))
        #expect(throws: AuthorizationError.notDetermined(source: "app", type: "water")) {
            try state.checkShare(source: "app", type: .water)
        }
    }

    func rawValuesAreHealthKits() {
        expectEqual(AuthorizationStatus.notDetermined.rawValue, 0)
        expectEqual(AuthorizationStatus.sharingDenied.rawValue, 1)
        expectEqual(AuthorizationStatus.sharingAuthorized.rawValue, 2)
        expectEqual(AuthorizationRequestStatus.shouldRequest.rawValue, 1)
        expectEqual(AuthorizationRequestStatus.unnecessary.rawValue, 2)
        expectEqual(AuthorizationError.notDetermined(source: "a", type: "b").healthKitCode, 5)
        expectEqual(AuthorizationError.denied(source: "a", type: "b").healthKitCode, 4)
    }

    /// notDetermined → (request) notDetermined → (grant) authorized → (deny) denied → (revoke) notDetermined.
    func everyTransition() throws {
        var state = AuthorizationState()
        let water = SampleType.water.identifier
        try state.request(source: "app", share: [.water], read: [.steps], at: now)
        expectEqual(state.shareStatus(source: "app", type: water), .notDetermined)
        expectEqual(state.requestStatus(source: "app", share: [water], read: [SampleType.steps.identifier]), .shouldRequest)
        try state.decide(source: "app", allow: true, share: [.water], read: [.steps], at: now)
        expectEqual(state.shareStatus(source: "app", type: water), .sharingAuthorized)
        #expect(state.mayRead(source: "app", type: SampleType.steps.identifier))
        expectEqual(state.requestStatus(source: "app", share: [water], read: [SampleType.steps.identifier]), .unnecessary)
        try state.checkShare(source: "app", type: .water)
        try state.decide(source: "app", allow: false, share: [.water], read: [.steps], at: now)
        expectEqual(state.shareStatus(source: "app", type: water), .sharingDenied)
        #expect(!state.mayRead(source: "app", type: SampleType.steps.identifier))
        #expect(throws: AuthorizationError.denied(source: "app", type: "water")) { try state.checkShare(source: "app", type: .water) }
        state.revoke(source: "app", types: [.water], at: now)
        expectEqual(state.shareStatus(source: "app", type: water), .notDetermined)
        expectEqual(state.log.map(\.action), ["request", "grant", "deny", "revoke"])
        expectEqual(state.log.map(\.actor), ["app", "hkctl", "hkctl", "hkctl"])
    }

    func typesAppleComputesCannotBeShared() throws {
        var state = AuthorizationState()
        let exercise = try SampleTypeCatalogue.standard.type(named: "exercise-time")
        #expect(throws: AuthorizationError.cannotShare("exercise-time")) {
            try state.request(source: "app", share: [exercise], read: [], at: now)
        }
        #expect(throws: AuthorizationError.emptyRequest) { try state.request(source: "app", share: [], read: [], at: now) }
        try state.request(source: "app", share: [], read: [exercise], at: now)  // reading is fine
        // The fact sheet's other never-shared types: sleeping wrist temperature, and correlation types (a source asks
        // for their members' types), whether asked for or granted by the owner.
        let wrist = try SampleTypeCatalogue.standard.type(named: "wrist-temp")
        #expect(throws: AuthorizationError.cannotShare(wrist.name)) { try state.request(source: "app", share: [wrist], read: [], at: now) }
        for correlation in [CorrelationType.bloodPressure, CorrelationType.food] {
            #expect(throws: AuthorizationError.cannotShare(correlation.name)) {
                try state.request(source: "app", share: [correlation], read: [], at: now)
            }
            #expect(throws: AuthorizationError.cannotShare(correlation.name)) {
                try state.decide(source: "app", allow: true, share: [correlation], read: [], at: now)
            }
            try state.request(source: "app", share: [], read: [correlation], at: now)  // reading is fine
        }
        #expect(!AuthorizationState.isUnshareable(try SampleTypeCatalogue.standard.type(named: "water")))
    }

    /// A library user holding a HealthStore for a source cannot write past the owner's decisions.
    func healthStoreEnforcesShareAndFiltersReads() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let storage = JSONFileStore(path: folder + "/store")
            try storage.save([TestSupport.quantitySample(.water, 500, "mL", start: "2024-06-01T08:00:00Z", source: "hkctl")])
            let app = try HealthStore(storage: storage, source: "app")
            let own = TestSupport.quantitySample(.water, 250, "mL", start: "2024-06-01T09:00:00Z", source: "app")
            #expect(throws: AuthorizationError.notDetermined(source: "app", type: "water")) { try app.save([own]) }
            try HealthStore(storage: storage, source: AuthorizationState.ownerSource)
                .decideAuthorization(for: "app", allow: true, share: [.water], read: [])
            let allowed = app
            try allowed.save([own])
            let forged = TestSupport.quantitySample(.water, 1, "mL", start: "2024-06-01T09:30:00Z", source: "hkctl")
            #expect(throws: AuthorizationError.wrongSource(sample: "hkctl", saving: "app")) { try allowed.save([forged]) }
            let day = DateInterval(start: TestSupport.date("2024-06-01T00:00:00Z"), duration: 86_400)
            // No read permission: only its own sample, and no error.
            try expectEqual(allowed.samples(ofType: SampleType.water.identifier, overlapping: day).map(\.source), ["app"])
            try expectEqual(storage.samples(ofType: SampleType.water.identifier, overlapping: day).count, 2)
        }
    }
}

/// The checks ``AuthorizationStateTests/checks(_:)`` runs.
private let authorizationStateTestsChecks: [Check<AuthorizationStateTests>] = [
    Check("everyTypeStartsNotDeterminedAndTheOwnerMayDoAnything",
          AuthorizationStateTests.everyTypeStartsNotDeterminedAndTheOwnerMayDoAnything),
    Check("rawValuesAreHealthKits", AuthorizationStateTests.rawValuesAreHealthKits),
    Check("everyTransition", AuthorizationStateTests.everyTransition),
    Check("typesAppleComputesCannotBeShared", AuthorizationStateTests.typesAppleComputesCannotBeShared),
    Check("healthStoreEnforcesShareAndFiltersReads", AuthorizationStateTests.healthStoreEnforcesShareAndFiltersReads),
]
