import Foundation
import Testing
import TestKit

/// Issue 31, "No silent surprises": what `add` and `stats` did quietly that a person would not expect.
struct SilentSurpriseTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: silentSurpriseTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// 07:30 in Paris on 2024-06-01.
    private let morning = ["HKCTL_NOW": "2024-06-01T07:30:00+02:00", "TZ": "Europe/Paris"]

    func aSleepRangeStillGoingOnIsRefusedNotMovedToTheNightBefore() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "sleep", "23:00-06:50", "-q"], environment: morning).status, 0)
            let before = cli.snapshot()
            // Ends ten minutes from now: it used to land on the night ending 2024-05-31, exit 0.
            let early = try cli.run(["add", "sleep", "00:10-07:40"], environment: morning)
            expectEqual(early.status, 65)
            #expect(early.stdout.isEmpty)
            expectEqual(early.stderr.split(separator: "\n").count, 1)
            #expect(early.stderr.contains("'00:10-07:40'") && early.stderr.contains("still going on") && early.stderr.contains("--on"))
            expectEqual(cli.snapshot(), before)
            // Naming its day still works, as does a range that has ended.
            try expectEqual(cli.run(["add", "sleep", "00:10-07:40", "--on", "2024-05-31", "-q"], environment: morning).status, 0)
            let list = try cli.run(["list", "sleep", "--format", "csv"], environment: morning)
            #expect(list.stdout.contains("2024-05-31T07:40:00+02:00"))
            #expect(!list.stdout.contains("2024-06-01T07:40"))
        }
    }

    func aRangeWhoseTodayHasNotBegunIsYesterdaysAsDocumented() throws {
        try CLIRunner.withTemporaryStore { cli in
            // At 07:30, 21:00-23:00 today has not begun: it is last evening's, and a first entry for that night.
            let added = try cli.run(["add", "sleep", "21:00-23:00", "--format", "csv"], environment: morning)
            expectEqual(added.status, 0)
            #expect(added.stdout.contains("2024-05-31T21:00:00+02:00"))
            #expect(added.stderr.isEmpty)
        }
    }

    func aSecondRangeOnANightThatHasSleepFromTheSameSourceWarns() throws {
        try CLIRunner.withTemporaryStore { cli in
            #expect(try cli.run(["add", "sleep", "23:00-06:50", "-q"], environment: morning).stderr.isEmpty)
            // Same night, same stage, same source: saved, with a warning naming the night and the existing range.
            let second = try cli.run(["add", "sleep", "01:00-03:00", "-q"], environment: morning)
            expectEqual(second.status, 0)
            #expect(second.stderr.contains("Warning: the night ending on 2024-06-01 already has asleep from 'hkctl' (23:00–06:50)"))
            #expect(second.stderr.contains("hkctl undo"))
            // In bed for the same night is the usual companion of asleep: no warning.
            let inBed = try cli.run(["add", "sleep", "22:45-07:00", "--stage", "inbed", "-q"], environment: morning)
            #expect(inBed.status == 0 && inBed.stderr.isEmpty, "\(inBed.stderr)")
            // Another source's sleep on that night is not this source's double entry.
            try expectEqual(cli.run(["auth", "grant", "Watch", "--share", "sleep", "-q"], environment: morning).status, 0)
            let watch = try cli.run(["add", "sleep", "23:05-06:40", "--source", "Watch", "-q"], environment: morning)
            expectEqual(watch.status, 0)
            #expect(!watch.stderr.contains("already has"))
            // The night before is another night.
            let earlier = try cli.run(["add", "sleep", "23:00-06:50", "--on", "2024-05-31", "-q"], environment: morning)
            #expect(earlier.status == 0 && earlier.stderr.isEmpty, "\(earlier.stderr)")
            try expectEqual(cli.run(["list", "sleep", "--format", "csv"], environment: morning).stdout
                .split(separator: "\n").count, 6)
        }
    }

    func anImplausibleJumpWarnsButIsSaved() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "weight", "72.3kg", "--at", "2024-05-31T07:00", "-q"]).status, 0)
            let typo = try cli.run(["add", "weight", "27.2kg", "-q"])
            expectEqual(typo.status, 0)
            #expect(typo.stdout.isEmpty)
            #expect(typo.stderr.contains("Warning: 27.2 kg is 45.1 kg less than the previous weight (72.3 kg on 2024-05-31 07:00)"))
            #expect(typo.stderr.contains("hkctl undo"))
            try expectEqual(cli.run(["list", "weight", "--format", "csv"]).stdout.split(separator: "\n").count, 3)
            // An ordinary day-to-day change says nothing; nor does a change spread over months.
            #expect(try cli.run(["add", "weight", "26.9kg", "-q"]).stderr.isEmpty)
            // In pounds the message speaks the type's usual unit; a height that shrinks 40 cm warns too.
            let pounds = try cli.run(["add", "weight", "160lb", "-q"])
            #expect(pounds.stderr.contains("Warning: 72.6 kg is 45."))
            #expect(pounds.stderr.contains("kg more than the previous weight (2"))
            #expect(try cli.run(["add", "height", "178cm", "--at", "2024-01-01", "-q"]).stderr.isEmpty)
            #expect(try cli.run(["add", "height", "179cm", "-q"]).stderr.isEmpty)
            #expect(try cli.run(["add", "height", "138cm", "-q"]).stderr.contains("less than the previous height"))
            #expect(try cli.run(["add", "body-fat", "21%", "--at", "2024-05-30", "-q"]).stderr.isEmpty)
            #expect(try cli.run(["add", "body-fat", "2.1%", "-q"]).stderr.contains("less than the previous body-fat"))
            // Steps and water vary freely.
            #expect(try cli.run(["add", "steps", "10", "--at", "2024-05-31", "-q"]).stderr.isEmpty)
            #expect(try cli.run(["add", "steps", "20000", "-q"]).stderr.isEmpty)
        }
    }

    func aForgottenQuoteNamesTheStrayWordNotAUnit() throws {
        try CLIRunner.withTemporaryStore { cli in
            let stray = try cli.run(["add", "weight", "72kg", "--meta", "note=after", "run"])
            expectEqual(stray.status, 64)
            #expect(stray.stderr.hasPrefix("Error: Unexpected argument 'run' after the amount '72kg'"))
            #expect(stray.stderr.contains("--meta 'key=value with spaces'"))
            #expect(!stray.stderr.contains("unit"))
            #expect(!FileManager.default.fileExists(atPath: cli.storePath))
            // An amount and its unit as two words are still one amount.
            try expectEqual(cli.run(["add", "water", "500", "mL", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "weight", "72.5", "kg", "--meta", "note=after run", "-q"]).status, 0)
        }
    }

    func aTableWithOneBucketKeepsItsDates() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "steps", "1000", "--at", "2024-03-19T10:00", "-q"]).status, 0)
            let week = try cli.run(["stats", "steps", "--from", "2024-03-18", "--to", "2024-03-24", "--by", "week"])
            expectEqual(week.status, 0)
            let rows = week.stdout.split(separator: "\n").map(String.init)
            expectEqual(rows.count, 4, "\(week.stdout)")
            #expect(rows[2].hasPrefix("2024-03-18 00:00  2024-03-25 00:00"))
            #expect(rows[3].hasPrefix("all "))
            let explained = try cli.run(["stats", "steps", "--from", "2024-03-18", "--to", "2024-03-24", "--by", "week", "--explain"])
            #expect(explained.stdout.contains("Bucket 2024-03-18T00:00:00+00:00"))
            #expect(explained.stdout.contains("Whole range 2024-03-18T00:00:00+00:00"))
        }
    }

    func aSyncReplacementIsACorrectionNotAJumpOrASecondRange() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "weight", "72.3kg", "--at", "2024-05-31T08:00", "-q"]).status, 0)
            let typo = try cli.run(["add", "weight", "27.2kg", "--at", "2024-06-01T08:00", "--sync-id", "scale-0601", "-q"])
            #expect(typo.stderr.contains("Warning: 27.2 kg"))
            let fixed = try cli.run(["add", "weight", "72.2kg", "--at", "2024-06-01T08:00", "--sync-id", "scale-0601",
                                     "--sync-version", "2", "-q"])
            #expect(fixed.status == 0 && !fixed.stderr.contains("Warning"), "\(fixed.stderr)")
            try expectEqual(cli.run(["add", "sleep", "23:00-07:00", "--sync-id", "n1", "-q"], environment: morning).status, 0)
            let longer = try cli.run(["add", "sleep", "23:00-07:20", "--sync-id", "n1", "--sync-version", "2", "-q"], environment: morning)
            #expect(longer.status == 0 && !longer.stderr.contains("already has"), "\(longer.stderr)")
        }
    }

    func aNapAndTheNightAfterItAreNoDoubleEntry() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "sleep", "14:00-15:00", "--on", "2024-05-31", "-q"], environment: morning).status, 0)
            let night = try cli.run(["add", "sleep", "23:00-06:50", "-q"], environment: morning)
            #expect(night.status == 0 && night.stderr.isEmpty, "\(night.stderr)")
            // An amount in exponent form with its unit as a second word is one amount, not a stray word.
            try expectEqual(cli.run(["add", "steps", "1e3", "steps", "-q"], environment: morning).status, 0)
        }
    }
}

/// The checks ``SilentSurpriseTests/checks(_:)`` runs.
private let silentSurpriseTestsChecks: [Check<SilentSurpriseTests>] = [
    Check("aSleepRangeStillGoingOnIsRefusedNotMovedToTheNightBefore",
          SilentSurpriseTests.aSleepRangeStillGoingOnIsRefusedNotMovedToTheNightBefore),
    Check("aRangeWhoseTodayHasNotBegunIsYesterdaysAsDocumented",
          SilentSurpriseTests.aRangeWhoseTodayHasNotBegunIsYesterdaysAsDocumented),
    Check("aSecondRangeOnANightThatHasSleepFromTheSameSourceWarns",
          SilentSurpriseTests.aSecondRangeOnANightThatHasSleepFromTheSameSourceWarns),
    Check("anImplausibleJumpWarnsButIsSaved", SilentSurpriseTests.anImplausibleJumpWarnsButIsSaved),
    Check("aForgottenQuoteNamesTheStrayWordNotAUnit", SilentSurpriseTests.aForgottenQuoteNamesTheStrayWordNotAUnit),
    Check("aTableWithOneBucketKeepsItsDates", SilentSurpriseTests.aTableWithOneBucketKeepsItsDates),
    Check("aSyncReplacementIsACorrectionNotAJumpOrASecondRange",
          SilentSurpriseTests.aSyncReplacementIsACorrectionNotAJumpOrASecondRange),
    Check("aNapAndTheNightAfterItAreNoDoubleEntry", SilentSurpriseTests.aNapAndTheNightAfterItAreNoDoubleEntry),
]
