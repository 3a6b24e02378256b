import Foundation
import Testing
import TestKit
@testable import HealthCore

/// `authorizationStatus(for:)` does not throw and `requestAuthorization(toShare:read:)` takes optional sets, in its
/// synchronous, async and completion-handler forms, as HealthKit's.
struct AuthorizationSignatureTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: authorizationSignatureTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-02T12:00:00Z")
    private static let steps = QuantityType(.stepCount), water = QuantityType(.dietaryWater)

    private static func withStores(_ body: (_ owner: HealthStore, _ app: HealthStore, _ folder: String) throws -> Void) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let owner = try HealthStore(directory: folder + "/store", clock: { now })
            let app = try HealthStore(directory: folder + "/store", source: "app", clock: { now })
            try body(owner, app, folder + "/store")
        }
    }

    func theStatusIsReadWithoutTry() throws {
        try Self.withStores { owner, app, _ in
            // HealthKit's line, ported by the prefix alone.
            let status = app.authorizationStatus(for: Self.water)
            expectEqual(status, .notDetermined)
            try app.requestAuthorization(toShare: [Self.water], read: nil)
            try owner.decideAuthorization(for: "app", allow: true, share: [Self.water], read: [])
            expectEqual(app.authorizationStatus(for: Self.water), .sharingAuthorized)
            expectEqual(owner.authorizationStatus(for: Self.steps), .sharingAuthorized)
        }
    }

    func unreadablePermissionsAnswerNotDeterminedAndTheNextThrowingCallSaysWhy() throws {
        try Self.withStores { owner, app, folder in
            try app.requestAuthorization(toShare: [Self.water], read: nil)
            try owner.decideAuthorization(for: "app", allow: true, share: [Self.water], read: [])
            expectEqual(app.authorizationStatus(for: Self.water), .sharingAuthorized)
            // The permissions file is damaged: nothing is known of the owner's decisions.
            try Data("{ not json".utf8).write(to: URL(fileURLWithPath: folder + "/authorization.json"))
            expectEqual(app.authorizationStatus(for: Self.water), .notDetermined)
            #expect(throws: StoreError.self) { try app.statusForAuthorizationRequest(toShare: [Self.water], read: []) }
            // The owner needs no permissions file.
            expectEqual(owner.authorizationStatus(for: Self.water), .sharingAuthorized)
        }
    }

    func requestsTakeOptionalSetsInEveryForm() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let owner = try HealthStore(directory: folder + "/store", clock: { Self.now })
            let app = try HealthStore(directory: folder + "/store", source: "app", clock: { Self.now })
            let typesToShare: Set<SampleType>? = [Self.water]
            let typesToRead: Set<SampleType>? = nil
            // The synchronous form (a non-async closure, so that the async overload is not chosen).
            let ask: () throws -> Void = { try app.requestAuthorization(toShare: typesToShare, read: typesToRead) }
            try ask()
            try await app.requestAuthorization(toShare: nil, read: [Self.steps])
            let answer: (Bool, Bool) = await withCheckedContinuation { done in
                app.requestAuthorization(toShare: nil, read: [CategoryType(.sleepAnalysis)]) { success, error in
                    done.resume(returning: (success, error == nil))
                }
            }
            #expect(answer == (true, true))
            let requested = try owner.authorizationDecisions().sources["app"]?.requested.sorted()
            expectEqual(requested, [CategoryType(.sleepAnalysis).identifier, Self.steps.identifier, Self.water.identifier].sorted())
            // Nothing asked at all (both nil) is still an empty request.
            #expect(throws: AuthorizationError.emptyRequest) { try app.requestAuthorization(toShare: nil, read: nil) }
        }
    }
}

/// The checks ``AuthorizationSignatureTests/checks(_:)`` runs.
private let authorizationSignatureTestsChecks: [Check<AuthorizationSignatureTests>] = [
    Check("theStatusIsReadWithoutTry", AuthorizationSignatureTests.theStatusIsReadWithoutTry),
    Check("unreadablePermissionsAnswerNotDeterminedAndTheNextThrowingCallSaysWhy",
          AuthorizationSignatureTests.unreadablePermissionsAnswerNotDeterminedAndTheNextThrowingCallSaysWhy),
    Check("requestsTakeOptionalSetsInEveryForm", AuthorizationSignatureTests.requestsTakeOptionalSetsInEveryForm),
]
