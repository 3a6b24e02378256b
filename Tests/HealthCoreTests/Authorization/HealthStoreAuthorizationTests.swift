import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Authorization through `HealthStore`'s API, as HealthKit has it: a source asks and never grants itself anything,
/// only the owner decides, decisions made elsewhere are seen without reopening, and the permissions file is not a
/// document a client can rewrite.
struct HealthStoreAuthorizationTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: healthStoreAuthorizationTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-02T12:00:00Z")

    private static func withStores(_ body: (_ owner: HealthStore, _ app: HealthStore, _ folder: String) throws -> Void) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let owner = try HealthStore(directory: folder + "/store", clock: { now })
            let app = try HealthStore(directory: folder + "/store", source: "app", clock: { now })
            try body(owner, app, folder + "/store")
        }
    }

    private static let steps = SampleType.steps, water = SampleType.water

    func aRequestIsRecordedAndGrantsNothing() throws {
        try Self.withStores { owner, app, _ in
            try expectEqual(app.statusForAuthorizationRequest(toShare: [Self.water], read: [Self.steps]), .shouldRequest)
            try app.requestAuthorization(toShare: [Self.water], read: [Self.steps],
                                         identity: .init(bundleIdentifier: "org.example.app", version: "2.1"))
            expectEqual(app.authorizationStatus(for: Self.water), .notDetermined)
            // Asking again changes nothing: still undecided, so the owner still has something to answer.
            try expectEqual(app.statusForAuthorizationRequest(toShare: [Self.water], read: []), .shouldRequest)
            let decisions = try owner.authorizationDecisions()
            expectEqual(decisions.sources["app"]?.requested.sorted(), [Self.steps.identifier, Self.water.identifier].sorted())
            expectEqual(decisions.sources["app"]?.version, "2.1")
            expectEqual(decisions.log.map(\.action), ["request"])
            let sample = TestSupport.quantitySample(.water, 250, "mL", start: "2024-06-01T09:00:00Z", source: "app")
            #expect(throws: AuthorizationError.notDetermined(source: "app", type: "water")) { try app.save([sample]) }
        }
    }

    func onlyTheOwnerDecides() throws {
        try Self.withStores { owner, app, folder in
            let before = TestSupport.walkFiles(folder)
            #expect(throws: AuthorizationError.ownerOnly(source: "app")) {
                try app.decideAuthorization(for: "app", allow: true, share: [Self.water], read: [])
            }
            #expect(throws: AuthorizationError.ownerOnly(source: "app")) { try app.revokeAuthorization(for: "other") }
            #expect(throws: AuthorizationError.ownerOnly(source: "app", action: "read every source's permissions")) { _ = try app.authorizationDecisions() }
            expectEqual(TestSupport.walkFiles(folder), before)
            try owner.decideAuthorization(for: "app", allow: false, share: [Self.water], read: [])
            expectEqual(app.authorizationStatus(for: Self.water), .sharingDenied)
            expectEqual(owner.authorizationStatus(for: Self.water), .sharingAuthorized)
        }
    }

    func aDecisionMadeElsewhereIsSeenWithoutReopening() throws {
        try Self.withStores { _, app, folder in
            let sample = TestSupport.quantitySample(.water, 250, "mL", start: "2024-06-01T09:00:00Z", source: "app")
            #expect(throws: AuthorizationError.notDetermined(source: "app", type: "water")) { try app.save([sample]) }
            // Another process: a store of its own on the same folder.
            let elsewhere = try HealthStore(directory: folder, clock: { Self.now })
            try elsewhere.decideAuthorization(for: "app", allow: true, share: [Self.water], read: [Self.water])
            try app.save([sample])
            #expect(try app.readsEverything(ofType: Self.water.identifier))
            try elsewhere.revokeAuthorization(for: "app", types: [Self.water])
            expectEqual(app.authorizationStatus(for: Self.water), .notDetermined)
            #expect(try !app.readsEverything(ofType: Self.water.identifier))
        }
    }

    func thePermissionsFileIsNotAPlainDocument() throws {
        try Self.withStores { owner, _, _ in
            try owner.decideAuthorization(for: "app", allow: false, share: [Self.water], read: [])
            #expect(throws: AuthorizationError.privateDocument("authorization.json")) {
                try owner.storage.updateDocument("authorization.json", initial: AuthorizationState()) {
                    try $0.decide(source: "app", allow: true, share: [Self.water], read: [], at: Self.now)
                }
            }
            #expect(throws: AuthorizationError.privateDocument("authorization.json")) {
                _ = try owner.storage.document("authorization.json", default: AuthorizationState())
            }
            try expectEqual(owner.authorizationDecisions().shareStatus(source: "app", type: Self.water.identifier), .sharingDenied)
        }
    }

    func asyncAndCompletionFormsGiveTheSameAnswers() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let app = try HealthStore(directory: folder + "/store", source: "app", clock: { Self.now })
            try await app.requestAuthorization(toShare: [Self.steps], read: [])
            try await expectEqual(app.statusForAuthorizationRequest(toShare: [Self.steps], read: []), .shouldRequest)
            let status: AuthorizationRequestStatus = try await withCheckedThrowingContinuation { continuation in
                app.getRequestStatusForAuthorization(toShare: [Self.steps], read: []) { status, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: status) }
                }
            }
            expectEqual(status, .shouldRequest)
            let granted: Bool = try await withCheckedThrowingContinuation { continuation in
                app.requestAuthorization(toShare: [Self.water], read: []) { success, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: success) }
                }
            }
            #expect(granted)
            expectEqual(app.authorizationStatus(for: Self.water), .notDetermined)
        }
    }

    func aHealthStoreIsSharedAcrossTasks() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let owner = try HealthStore(directory: folder + "/store", clock: { Self.now })
            try await withThrowingTaskGroup(of: Void.self) { group in
                for hour in 0..<8 {
                    group.addTask {
                        let start = String(format: "2024-06-01T%02d:00:00Z", hour)
                        try owner.save([TestSupport.quantitySample(.water, 250, "mL", start: start, source: "hkctl")])
                    }
                }
                try await group.waitForAll()
            }
            let day = DateInterval(start: TestSupport.date("2024-06-01T00:00:00Z"), duration: 86_400)
            try expectEqual(owner.samples(ofType: Self.water.identifier, overlapping: day).count, 8)
        }
    }
}

/// The checks ``HealthStoreAuthorizationTests/checks(_:)`` runs.
private let healthStoreAuthorizationTestsChecks: [Check<HealthStoreAuthorizationTests>] = [
    Check("aRequestIsRecordedAndGrantsNothing", HealthStoreAuthorizationTests.aRequestIsRecordedAndGrantsNothing),
    Check("onlyTheOwnerDecides", HealthStoreAuthorizationTests.onlyTheOwnerDecides),
    Check("aDecisionMadeElsewhereIsSeenWithoutReopening",
          HealthStoreAuthorizationTests.aDecisionMadeElsewhereIsSeenWithoutReopening),
    Check("thePermissionsFileIsNotAPlainDocument", HealthStoreAuthorizationTests.thePermissionsFileIsNotAPlainDocument),
    Check("asyncAndCompletionFormsGiveTheSameAnswers",
          HealthStoreAuthorizationTests.asyncAndCompletionFormsGiveTheSameAnswers),
    Check("aHealthStoreIsSharedAcrossTasks", HealthStoreAuthorizationTests.aHealthStoreIsSharedAcrossTasks),
]
