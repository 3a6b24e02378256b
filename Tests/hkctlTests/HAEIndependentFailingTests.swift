import Foundation
import Testing

/// Independent Health Auto Export checks that fail on the current build: each is a bug written up in
/// /work/notes/haetest-bugs.md (the input, what hkctl does, what should happen). Disabled so the branch stays green;
/// enable one when its bug is fixed.
struct HAEIndependentFailingTests {
    typealias H = HAEIndependent

    /// A glass typed with `hkctl add water 0.5L` at 10:00 and HAE's day total of 2,000 mL (which cannot hold the
    /// glass: it was typed on the computer) must give 2,500 mL in the default (merged) `stats water --by day`, as
    /// HealthKit's statistics would with the phone's real samples (instants that do not overlap the glass). hkctl
    /// shows 2,000 mL: HAE's day-long sample overlaps the glass and source priority hides the glass.
    @Test(.disabled("bug: merged stats hide a manual entry on a day HAE sent as a day total (2,500 mL → 2,000 mL)"))
    func aManualGlassOnAnHAEDayCountsInMergedStats() throws {
        try CLIRunner.withTemporaryStore { cli in
            let add = try cli.run(["add", "water", "0.5L", "--at", "2024-05-10 10:00"], environment: H.berlin)
            #expect(add.status == 0, "\(add.stderr)")
            try H.importQuietly(cli, "hae-day-water.json")
            let merged = try H.sums(cli, ["water", "--by", "day", "--from", "2024-05-10", "--to", "2024-05-10"])
            #expect(merged.count == 1 && (H.close(merged[0], 2500) || H.close(merged[0], 2.5)), "\(merged)")
        }
    }

}
