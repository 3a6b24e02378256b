import Foundation
import Testing
import TestKit
@testable import HKCtlCommands
@testable import HealthCore
@testable import HKCtlSupport

/// Advice on odd sleep entries typed to `hkctl add sleep`: a length is no night; daytime and overlong sleep is saved
/// with a warning.
struct SleepEntryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: sleepEntryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = EntryTestKit
    private let sleep = try! SampleTypeCatalogue.standard.type(named: "sleep")

    private func context(_ now: Date) -> TimeContext { TimeContext(now: now, timeZone: .gmt) }

    func aLengthIsNoNight() throws {
        for text in ["8h", "7.5h", "45min", "7h30m"] {
            let entry = SampleEntry(type: sleep, value: text)
            #expect(throws: SampleError.self) { try entry.sample(source: "hkctl", context: context(Kit.utc(2024, 6, 1, 12))) }
            do {
                _ = try entry.sample(source: "hkctl", context: context(Kit.utc(2024, 6, 1, 12)))
            } catch {
                #expect("\(error)".contains("23:10-07:05") && "\(error)".contains("--from"), "\(error)")
            }
        }
        #expect(!SampleEntry.looksLikeDuration("deep") && !SampleEntry.looksLikeDuration("rem"))
    }

    func daytimeAndOverlongSleepIsSavedWithAWarning() throws {
        let now = context(Kit.utc(2024, 6, 1, 23, 30))
        let daytime = SampleEntry(type: sleep, value: "07:00-23:00")
        let sample = try daytime.sample(source: "hkctl", context: now)
        let warnings = daytime.warnings(for: sample, context: now)
        #expect(warnings.count == 1 && warnings[0].contains("07:00–23:00") && warnings[0].contains("16"), "\(warnings)")
        #expect(warnings[0].contains("23:00-07:00"))
        let night = SampleEntry(type: sleep, value: "23:10-07:05")
        let ordinary = try night.sample(source: "hkctl", context: now)
        #expect(night.warnings(for: ordinary, context: now).isEmpty)
    }
}

/// The checks ``SleepEntryTests/checks(_:)`` runs.
private let sleepEntryTestsChecks: [Check<SleepEntryTests>] = [
    Check("aLengthIsNoNight", SleepEntryTests.aLengthIsNoNight),
    Check("daytimeAndOverlongSleepIsSavedWithAWarning", SleepEntryTests.daytimeAndOverlongSleepIsSavedWithAWarning),
]
