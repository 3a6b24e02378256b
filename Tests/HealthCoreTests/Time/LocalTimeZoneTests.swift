import Foundation
import Testing
@testable import HealthCore

/// The user's zone from the environment hkctl was given, by the steps of Foundation's `TimeZone.current`.
struct LocalTimeZoneTests {
    /// A zone no rule below would pick, to show when the fallback answered.
    private let fallback = TimeZone(identifier: "Pacific/Chatham")!

    private func resolve(_ environment: [String: String], link: String? = nil) -> TimeZone {
        LocalTimeZone.resolve(environment: environment, localtimeLink: { link }, current: { fallback })
    }

    #if os(Linux)
    @Test func tzNamesAZone() {
        #expect(resolve(["TZ": "Europe/Paris"], link: "/usr/share/zoneinfo/Asia/Tokyo").identifier == "Europe/Paris")
    }

    @Test func tzMayBeAnAbbreviation() {
        #expect(resolve(["TZ": "PST"]).identifier == "America/Los_Angeles")
        #expect(resolve(["TZ": "UTC"]).secondsFromGMT(for: Date(timeIntervalSince1970: 0)) == 0)
    }

    @Test func anUnknownTZIsLeftToFoundation() {
        #expect(resolve(["TZ": "Mars/Olympus_Mons"], link: "/usr/share/zoneinfo/Asia/Tokyo") == fallback)
        #expect(resolve(["TZ": ":Europe/Paris"]) == fallback)
    }

    @Test func withoutTZTheLocaltimeLinkNamesTheZone() {
        #expect(resolve([:], link: "/usr/share/zoneinfo/Asia/Tokyo").identifier == "Asia/Tokyo")
        #expect(resolve(["HOME": "/x"], link: "../usr/share/zoneinfo/America/New_York").identifier == "America/New_York")
    }

    @Test func anythingElseIsLeftToFoundation() {
        #expect(resolve([:], link: nil) == fallback)
        #expect(resolve([:], link: "/etc/zones/Tokyo") == fallback)
        #expect(resolve([:], link: "/usr/share/zoneinfo/Nowhere/Land") == fallback)
        #expect(resolve(["TZFILE": "/tmp/zone", "TZ": "Europe/Paris"]) == fallback)
    }

    @Test func agreesWithFoundationForThisProcess() {
        let environment = ProcessInfo.processInfo.environment
        #expect(LocalTimeZone.resolve(environment: environment).identifier == TimeZone.current.identifier)
    }
    #endif
}
