import Testing
import TestKit
@testable import HealthCore

/// The `sequence` file's two forms, and which numbers a writer of a boot hands out from it (``ChangeCounter``).
struct ChangeCounterTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: changeCounterTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let path = "/s/sequence"
    private static let bootA = "8d3c1e2a-5b6f-4c7d-9e0f-112233445566"
    private static let bootB = "0f1e2d3c-4b5a-4968-8776-655443322110"

    private func counter(_ text: String) -> ChangeCounter? { ChangeCounter(text: Array(text.utf8)) }

    func theFirstFormIsALastNumberWithNoReservation() {
        expectEqual(counter("00000000000000000012\n"), ChangeCounter(last: 12))
        expectEqual(counter("12"), ChangeCounter(last: 12), "the digits alone, as readers of the first form took them")
        expectEqual(counter("  12 \n\n"), ChangeCounter(last: 12), "spaces and newlines around it")
        expectEqual(counter("00000000000000000000\n"), ChangeCounter(last: 0))
        expectEqual(counter("9007199254740991\n"), ChangeCounter(last: ChangeNumbers.maximum))
        expectEqual(ChangeCounter(last: 7).text, Array("00000000000000000007\n".utf8))
    }

    func theReservedFormKeepsItsBlockAndBoot() throws {
        let text = "00000000000000000003\nreserved 00000000000000001027 boot \(Self.bootA)\n"
        let read = try #require(counter(text))
        expectEqual(read, ChangeCounter(last: 3, reservedThrough: 1027, boot: Self.bootA))
        expectEqual(read.text, Array(text.utf8), "written back byte for byte")
    }

    @Test(arguments: [
        "12x\n", "-1\n", "9007199254740992\n", "18446744073709551616\n", "\n", "1\n2\n3\n",
        "00000000000000000003\nreserved 00000000000000001027\n",
        "00000000000000000003\nreserved 00000000000000001027 boot\n",
        "00000000000000000003\nreserved 00000000000000001027 boot a b\n",
        "00000000000000000003\nreserved 00000000000000001027 boot ../etc\n",
        "00000000000000000003\nreserved x boot abc\n",
        "00000000000000000003\nreserve 00000000000000001027 boot abc\n",
        "00000000000000000003\nreserved 9007199254740992 boot abc\n",
        "00000000000000000003\nreserved 00000000000000001027 boot " + String(repeating: "a", count: 65) + "\n",
    ])
    func anythingElseIsDamage(text: String) {
        expectNil(counter(text), "\(text.debugDescription) was read")
    }

    func theLastNumberIsExactOnlyInTheBootThatWroteIt() {
        let reserved = ChangeCounter(last: 3, reservedThrough: 1027, boot: Self.bootA)
        expectEqual(reserved.lastUsed(inBoot: Self.bootA), 3)
        expectEqual(reserved.lastUsed(inBoot: Self.bootB), 1027, "after a restart the unsynced last number may be lost")
        expectEqual(reserved.lastUsed(inBoot: nil), 1027, "a process that cannot tell its boot takes the durable bound")
        expectEqual(ChangeCounter(last: 3).lastUsed(inBoot: Self.bootB), 3, "the first form's number is durable")
        // A hand-edited file whose last number passed its block: never below what it says.
        expectEqual(ChangeCounter(last: 2000, reservedThrough: 1027, boot: Self.bootA).lastUsed(inBoot: Self.bootB), 2000)
    }

    func numbersWithinThisBootsBlockNeedNoSync() throws {
        let reserved = ChangeCounter(last: 3, reservedThrough: 1027, boot: Self.bootA)
        let inside = try reserved.handingOut(2, inBoot: Self.bootA, counter: Self.path)
        expectEqual(inside.numbers, 4...5)
        expectEqual(inside.next, ChangeCounter(last: 5, reservedThrough: 1027, boot: Self.bootA))
        #expect(!inside.sync)
        let toTheEnd = try reserved.handingOut(1024, inBoot: Self.bootA, counter: Self.path)
        #expect(toTheEnd.numbers == 4...1027 && !toTheEnd.sync, "the block's last number is still inside it")
    }

    func passingTheBlockReservesTheNextAndSyncs() throws {
        let reserved = ChangeCounter(last: 3, reservedThrough: 1027, boot: Self.bootA)
        let past = try reserved.handingOut(1025, inBoot: Self.bootA, counter: Self.path)
        expectEqual(past.numbers, 4...1028)
        expectEqual(past.next, ChangeCounter(last: 1028, reservedThrough: 1028 + ChangeCounter.slack, boot: Self.bootA))
        #expect(past.sync)
        let first = try ChangeCounter(last: 12).handingOut(1, inBoot: Self.bootA, counter: Self.path)
        #expect(first.numbers == 13...13 && first.sync, "the first form has no block to take from")
        expectEqual(first.next, ChangeCounter(last: 13, reservedThrough: 13 + ChangeCounter.slack, boot: Self.bootA))
    }

    func anotherBootStartsAfterTheBlockAndReservesItsOwn() throws {
        let reserved = ChangeCounter(last: 3, reservedThrough: 1027, boot: Self.bootA)
        let after = try reserved.handingOut(1, inBoot: Self.bootB, counter: Self.path)
        expectEqual(after.numbers, 1028...1028)
        expectEqual(after.next, ChangeCounter(last: 1028, reservedThrough: 1028 + ChangeCounter.slack, boot: Self.bootB))
        #expect(after.sync)
    }

    func withoutABootEveryWriteSyncsTheFirstForm() throws {
        let reserved = ChangeCounter(last: 3, reservedThrough: 1027, boot: Self.bootA)
        for boot in [nil, "", "not a boot"] as [String?] {
            let handed = try reserved.handingOut(1, inBoot: boot, counter: Self.path)
            expectEqual(handed.numbers, 1028...1028, "\(String(describing: boot))")
            #expect(handed.next == ChangeCounter(last: 1028) && handed.sync, "\(String(describing: boot))")
        }
        let plain = try ChangeCounter(last: 3).handingOut(2, inBoot: nil, counter: Self.path)
        #expect(plain.numbers == 4...5 && plain.next == ChangeCounter(last: 5) && plain.sync)
    }

    func theBlockStopsAtTheLastChangeNumber() throws {
        let near = ChangeCounter(last: ChangeNumbers.maximum - 10)
        let handed = try near.handingOut(4, inBoot: Self.bootA, counter: Self.path)
        expectEqual(handed.next.reservedThrough, ChangeNumbers.maximum)
        let last = try handed.next.handingOut(6, inBoot: Self.bootA, counter: Self.path)
        #expect(last.numbers.upperBound == ChangeNumbers.maximum && !last.sync)
        #expect(throws: StoreError.changeNumbersExhausted(Self.path, last: ChangeNumbers.maximum)) {
            try last.next.handingOut(1, inBoot: Self.bootA, counter: Self.path)
        }
        #expect(throws: StoreError.changeNumbersExhausted(Self.path, last: ChangeNumbers.maximum)) {
            try ChangeCounter(last: 5, reservedThrough: ChangeNumbers.maximum, boot: Self.bootA)
                .handingOut(1, inBoot: Self.bootB, counter: Self.path)
        }
    }

    func thisMachineTellsItsBoot() {
#if os(Linux)
        let boot = BootIdentity.current
        #expect(boot != nil, "Linux has /proc/sys/kernel/random/boot_id")
        expectEqual(boot.map { ChangeCounter.isBoot(Array($0.utf8)[...]) }, true)
        expectEqual(BootIdentity.current, boot, "the same for the whole process")
#endif
    }
}

/// The checks ``ChangeCounterTests/checks(_:)`` runs.
private let changeCounterTestsChecks: [Check<ChangeCounterTests>] = [
    Check("theFirstFormIsALastNumberWithNoReservation", ChangeCounterTests.theFirstFormIsALastNumberWithNoReservation),
    Check("theReservedFormKeepsItsBlockAndBoot", ChangeCounterTests.theReservedFormKeepsItsBlockAndBoot),
    Check("theLastNumberIsExactOnlyInTheBootThatWroteIt",
          ChangeCounterTests.theLastNumberIsExactOnlyInTheBootThatWroteIt),
    Check("numbersWithinThisBootsBlockNeedNoSync", ChangeCounterTests.numbersWithinThisBootsBlockNeedNoSync),
    Check("passingTheBlockReservesTheNextAndSyncs", ChangeCounterTests.passingTheBlockReservesTheNextAndSyncs),
    Check("anotherBootStartsAfterTheBlockAndReservesItsOwn",
          ChangeCounterTests.anotherBootStartsAfterTheBlockAndReservesItsOwn),
    Check("withoutABootEveryWriteSyncsTheFirstForm", ChangeCounterTests.withoutABootEveryWriteSyncsTheFirstForm),
    Check("theBlockStopsAtTheLastChangeNumber", ChangeCounterTests.theBlockStopsAtTheLastChangeNumber),
    Check("thisMachineTellsItsBoot", ChangeCounterTests.thisMachineTellsItsBoot),
]
