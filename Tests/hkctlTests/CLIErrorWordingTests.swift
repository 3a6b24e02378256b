import Testing
import HealthCore
@testable import hkctl

/// The library's store and time errors name what a library user can do; hkctl prints the flag, variable or command
/// a person types instead, with the same facts.
struct CLIErrorWordingTests {
    @Test(arguments: [
        (StoreError.cannotCreate("/s", reason: "read-only"), "--store or $HKCTL_STORE"),
        (StoreError.notAStore("/s"), "point --store at"),
        (StoreError.notAFolder("/s"), "point --store at a folder"),
        (StoreError.busy("/s", waitedSeconds: 2), "raise $HKCTL_LOCK_TIMEOUT"),
        (StoreError.changeNumbersExhausted("/s/.changes", last: 9), "'hkctl doctor --repair' rebuilds it"),
        (StoreError.counterBehind("/s/.changes", counter: 3, used: 5), "Run 'hkctl doctor --repair'"),
        (StoreError.notAFile("/s/x", kind: "a FIFO"), "hkctl doctor lists"),
        (StoreError.disappeared("/s"), "--store or $HKCTL_STORE at its new place"),
        (TimeInputError.malformed("8h30"), "'yesterday 22:30' or '-2h'"),
    ] as [(Error, String)])
    func theCommandLineNamesItsOwnRemedy(_ error: Error, _ hint: String) {
        let library = "\(error)", printed = CLIErrorWording.message(for: error)
        #expect(printed.contains(hint), "\(printed)")
        #expect(!library.contains("--") && !library.contains("$HKCTL") && !library.contains("hkctl doctor"),
                "the library's words name no flag, variable or command: \(library)")
        // The facts are the library's: the path and what went wrong come through.
        #expect(printed.contains(library.prefix(12)), "\(library) / \(printed)")
    }

    @Test func anyOtherErrorPrintsItsOwnDescription() {
        let error = StoreError.readFailed("/s/x.jsonl", reason: "permission denied")
        #expect(CLIErrorWording.message(for: error) == "\(error)")
    }
}
