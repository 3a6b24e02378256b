import Foundation
import HealthCore

/// What every seed port shares: a pinned clock, a UTC calendar in place of `Calendar.current`, and a temporary
/// store. Only public HealthCore API is used (no `@testable`).
///
/// Ported code is fenced by `//>> name` and `//<<` lines; `docs/LIBRARY.md` ("The seed notes, ported") counts the
/// non-blank lines between them against the seed's snippet.
enum Seed {
    /// The pinned "now" of every port: Monday 10 June 2024, 12:00 UTC (`Date()` in the seeds).
    static let now = date("2024-06-10T12:00:00Z")
    /// `Calendar.current` in the seeds: Gregorian, UTC, so that no figure depends on the machine's zone.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)!
    }

    /// A fresh store folder, removed afterwards; `body` gets its path.
    static func withFolder(isolation: isolated (any Actor)? = #isolation, _ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seed-port-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await body(folder + "/store")
    }

    /// The owner's store in a fresh folder, with the pinned clock.
    static func withStore(isolation: isolated (any Actor)? = #isolation, _ body: (HealthStore) async throws -> Void) async throws {
        try await withFolder { path in try await body(try HealthStore(directory: path, clock: { now })) }
    }

    /// The owner's store and an app's store on the same fresh folder, both with the pinned clock.
    static func withStores(isolation: isolated (any Actor)? = #isolation, app: String, _ body: (_ owner: HealthStore, _ app: HealthStore) async throws -> Void) async throws {
        try await withFolder { path in
            try await body(try HealthStore(directory: path, clock: { now }), try HealthStore(directory: path, source: app, clock: { now }))
        }
    }

    /// Waits (up to 10 s) until `condition` holds; returns whether it did.
    static func eventually(_ condition: @Sendable () async throws -> Bool) async rethrows -> Bool {
        for _ in 0..<1_000 {
            if try await condition() { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return try await condition()
    }

    /// The identifiers an app asked for (to share or to read), as the owner sees them (`hkctl auth`), sorted.
    static func requested(by app: String, in owner: HealthStore) throws -> [String] {
        (try owner.authorizationDecisions().sources[app]?.requested ?? []).sorted()
    }
}
