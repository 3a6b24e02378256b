import Foundation
import Testing
import TestKit
@testable import HealthCore
@testable import HKCtlCommands

/// The library's store and time errors name what a library user can do; hkctl prints the flag, variable or command
/// a person types instead, with the same facts.
struct CLIErrorWordingTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: cLIErrorWordingTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

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

    /// An import whose batch cannot be written (a full disk) says that the batches before it stay stored and that
    /// running it again finishes it, with the exit code of an I/O error (a review: it said 'nothing was saved').
    func anImportThatStopsAtABatchSaysWhatStays() {
        let error = ImportError.batchNotSaved("/s/samples/x/2024-05.jsonl", reason: "No space left on device")
        expectEqual(ExitStatus.of(error), .ioError)
        #expect(error.description.contains("any batches before it stay stored") && error.description.contains("Run the same import again"),
                "\(error)")
        #expect(!error.description.contains("nothing was saved"))
    }

    func anyOtherErrorPrintsItsOwnDescription() {
        let error = StoreError.readFailed("/s/x.jsonl", reason: "permission denied")
        expectEqual(CLIErrorWording.message(for: error), "\(error)")
    }

    /// Errors whose library words no longer name hkctl (session 17), made where the library makes them when that is
    /// cheap, each with the exact line hkctl printed before.
    private static func session17Errors() throws -> [(Error, String)] {
        var errors: [(Error, String)] = [
            (StoreError.notAStore("/s"), ""),
            (StoreError.busy("/s", waitedSeconds: 2), ""),
            (StoreError.busy("/s", waitedSeconds: 2, holders: [12, 13]), ""),
            (StoreError.newerVersion(found: 2, supported: 1), ""),
            (StoreError.unknownVersion("/s/hkctl-store.json", found: "0"), ""),
            (StoreError.unknownFormat("/s/hkctl-store.json", found: "other"), ""),
            (StoreError.unknownFormat("/s/hkctl-store.json", found: nil), ""),
            (StoreError.foreignOwner("/s/x y", owner: 4242, storeOwner: 0), ""),
            (POSIXFile.openFailure("/s/x", writing: false, code: ELOOP), ""),
            (POSIXFile.openFailure("/s/x", writing: true, code: EEXIST), ""),
            (SourceError.newerVersion(2, supported: 1), ""),
            (SourceError.emptySourceName, ""),
            (UUIDPrefixError.noMatch("abcd1234"), ""),
            (UUIDPrefixError.notAUUID("xyz"), ""),
            (OverflowError.overflow(type: "Water", samples: ["u1"], total: 1), ""),
            (OverflowError.overflow(type: "Water", samples: ["u1", "u2"], total: 3), ""),
            (OverflowError.overflow(type: "Water", samples: [], total: 0), ""),
            (ImportError.unsupportedEncoding("/x.xml", encoding: "UTF-16"), ""),
            (ImportError.lineTooLong("/x.jsonl", line: 3, offset: 100, limit: 16 << 20), ""),
            (ExportError.danglingLink("/o", target: "/t"), ""),
            (AuthorizationError.notDetermined(source: "my app", type: "Water"), ""),
            (AuthorizationError.denied(source: "app", type: "Body Mass"), ""),
            (AuthorizationError.emptyRequest, ""),
            (AuthorizationError.ownerOnly(source: "app"), ""),
            (AuthorizationError.ownerOnly(source: "app", action: "export the store"), ""),
            (AuthorizationError.pendingApproval(source: "my app", share: ["Water", "Steps"], read: []), ""),
            (AuthorizationError.pendingApproval(source: "app", share: [], read: ["Heart Rate"]), ""),
            (AuthorizationError.pendingApproval(source: "app", share: ["Water"], read: ["Water", "Steps"]), ""),
        ]
        do { _ = try ISODate.components("1800-01-01") } catch { errors.append((error, "")) }
        try TestSupport.withTemporaryDirectory { folder in
            do { try StoreSafety.checkStoreFolder(folder, userID: 4242) } catch { errors.append((error, "")) }
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt, lockTimeout: 2)
            try store.save([Sample(typeIdentifier: "HKQuantityTypeIdentifierDietaryWater", start: Date(timeIntervalSince1970: 0),
                                   end: Date(timeIntervalSince1970: 0), value: .quantity(Quantity(1, try HealthUnit(parsing: "mL"))),
                                   source: "hkctl", created: Date(timeIntervalSince1970: 0))])
            try Data("nonsense".utf8).write(to: URL(fileURLWithPath: store.sequencePath))
            do { _ = try store.currentSequence() } catch { errors.append((error, "")) }
            try Data("{\"journal\":3,\"partitions\":[]}\n".utf8).write(to: URL(fileURLWithPath: store.journalPath))
            do { _ = try store.readJournal() } catch { errors.append((error, "")) }
            try FileManager.default.createDirectory(atPath: folder + "/elsewhere", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: store.path + "/samples/HKQuantityTypeIdentifierStepCount",
                                                       withDestinationPath: folder + "/elsewhere")
            do { _ = try store.folderEntries("samples/HKQuantityTypeIdentifierStepCount") } catch { errors.append((error, "")) }
            do { _ = try store.storeFile("samples/HKQuantityTypeIdentifierStepCount/2024-06.jsonl") } catch { errors.append((error, "")) }
            try Data("hello, world\n".utf8).write(to: URL(fileURLWithPath: folder + "/garbage"))
            do { _ = try HealthImporter(store: InMemorySampleStore()).importFile(atPath: folder + "/garbage") } catch { errors.append((error, "")) }
            do { try StoreSafety.makeFolders("samples/HKQuantityTypeIdentifierStepCount/x", inStore: store.path) } catch { errors.append((error, "")) }
        }
        return errors
    }

    func theCommandLinePrintsWhatItPrintedBeforeTheLibraryLostItsWords() throws {
        let errors = try Self.session17Errors()
        let printed = errors.map { TestSupport.maskingTemporaryFolders(CLIErrorWording.message(for: $0.0)) }
        expectEqual(printed, Self.printedBefore)
        for (error, _) in errors {
            let words = TestSupport.maskingTemporaryFolders("\(error)").replacing("hkctl-store", with: "")
            #expect(!words.contains("hkctl") && !words.contains("--") && !words.contains("$HKCTL"), "\(error)")
        }
    }

    private static let printedBefore: [String] = [
        "'/s' is not an hkctl store (it has other files and no hkctl-store.json); point --store at an empty or new folder.",
        "The store '/s' is busy: another hkctl held its lock for 2 s; try again, or raise $HKCTL_LOCK_TIMEOUT.",
        "The store '/s' is busy: process 12, 13 held its lock for 2 s; try again, or raise $HKCTL_LOCK_TIMEOUT.",
        "The store's marker hkctl-store.json (line 1) says format version 2, newer than the version 1 this hkctl supports; upgrade hkctl (nothing was changed).",
        "The store marker '/s/hkctl-store.json' (line 1) names format version 0, which no hkctl writes; this hkctl reads version 1. Nothing was changed; see docs/STORE.md.",
        "The store marker '/s/hkctl-store.json' (line 1) names format 'other'; this hkctl reads only format 'hkctl-store' version 1. Nothing was changed; see docs/STORE.md.",
        "The store marker '/s/hkctl-store.json' (line 1) names no format; this hkctl reads only format 'hkctl-store' version 1. Nothing was changed; see docs/STORE.md.",
        "Refusing to use '/s/x y': it belongs to user id 4242, not to the store's owner (user id 0), so hkctl did not make it (another user may have put it there while the folder was open to others). Look at it, then remove it (rm -r '/s/x y') or, if it is yours, give it back (chown -R 0 '/s/x y').",
        "Refusing to use '/s/x': it is a symbolic link inside the store; hkctl never follows one (replace it with the file it points to).",
        "Cannot write '/s/x': it appeared while hkctl was creating it; nothing was saved.",
        "The source priorities are version 2, newer than the version 1 this hkctl reads; upgrade hkctl.",
        "A source name is empty; give each source's name as 'hkctl sources' lists it.",
        "'abcd1234' is not a uuid or a unique uuid prefix: no sample's uuid starts with it; see hkctl list.",
        "'xyz' is not a uuid or a unique uuid prefix (at least 8 hexadecimal digits); see hkctl list.",
        "The figures of Water over this range are too large to be numbers (they overflow): the sample u1 holds a value outside the valid range for Water; correct or delete it ('hkctl doctor' lists them).",
        "The figures of Water over this range are too large to be numbers (they overflow): the samples u1, u2 and 1 more hold a value outside the valid range for Water; correct or delete them ('hkctl doctor' lists them).",
        "The figures of Water over this range are too large to be numbers (they overflow): no single sample is outside the valid range; correct or delete them ('hkctl doctor' lists them).",
        "'/x.xml' is encoded in UTF-16, which hkctl does not read (it reads UTF-8, ISO-8859-1 and Windows-1252); convert it first, e.g. iconv -f UTF-16 -t UTF-8 export.xml > export-utf8.xml, and import that.",
        "Line 3 of '/x.jsonl' (from byte 100) is longer than 16 MiB; an hkctl jsonl export holds one sample a line, so this is not one (or it is damaged). Nothing from that line on was read.",
        "'/o' is a symbolic link to '/t', which does not exist; hkctl writes through a link only to an existing file: create the target first, remove the link, or name another file.",
        "Source 'my app' may not write Water yet (authorization not determined); the owner can allow it with the command: hkctl auth grant 'my app' --share Water",
        "Source 'app' was denied writing Body Mass (authorization denied); only the owner can change that, with the command: hkctl auth grant app --share 'Body Mass'",
        "Name at least one type with --share or --read.",
        "Only the owner may change permissions, not source 'app'; run this without --source and without $HKCTL_SOURCE.",
        "Only the owner may export the store, not source 'app'; run this without --source and without $HKCTL_SOURCE.",
        "Source 'my app' asked to use Water, Steps; the owner must answer (or run 'hkctl auth request' on a terminal) with the command: hkctl auth grant 'my app' --share Water,Steps (or: hkctl auth deny 'my app' --share Water,Steps)",
        "Source 'app' asked to use Heart Rate; the owner must answer (or run 'hkctl auth request' on a terminal) with the command: hkctl auth grant app --read 'Heart Rate' (or: hkctl auth deny app --read 'Heart Rate')",
        "Source 'app' asked to use Water, Steps; the owner must answer (or run 'hkctl auth request' on a terminal) with the command: hkctl auth grant app --share Water --read Water,Steps (or: hkctl auth deny app --share Water --read Water,Steps)",
        "The time '1800-01-01' does not exist: hkctl keeps dates from 1900 on.",
        "Refusing to use '/T': it belongs to user id 0, not to you (user id 4242); run hkctl as its owner, or give it to yourself with chown.",
        "The store file '/T/store/sequence' is corrupt at line 1: it is not a change number from 0 to 9007199254740991; 'hkctl doctor --repair' rebuilds it; move that line out of the file to go on (see docs/STORE.md).",
        "The store file '/T/store/journal.jsonl' is corrupt at line 1: the journal has version 3, and this hkctl knows versions 1 and 2 (a newer hkctl may have written it: finish it with that hkctl); move that line out of the file to go on (see docs/STORE.md).",
        "Refusing to use '/T/store/samples/HKQuantityTypeIdentifierStepCount': it is a symbolic link inside the store; hkctl never reads or writes through one (replace it with a real folder).",
        "Refusing to use '/T/store/samples/HKQuantityTypeIdentifierStepCount': it is a symbolic link inside the store; hkctl never reads or writes through one (replace it with a real folder).",
        // As hkctl printed it until session 16 (which printed "a jsonl export (``ExportFormat/jsonl``)" by mistake).
        "'/T/garbage' is not an Apple Health export (export.zip or export.xml), an hkctl jsonl export nor a Health Auto Export JSON file: it does not start like XML, a zip archive, hkctl jsonl or a Health Auto Export payload ({\"data\": {\"metrics\": ...}}).",
        "Refusing to use '/T/store/samples/HKQuantityTypeIdentifierStepCount': it is a symbolic link inside the store; hkctl never writes through one (replace it with a real folder).",
    ]
}

/// The checks ``CLIErrorWordingTests/checks(_:)`` runs.
private let cLIErrorWordingTestsChecks: [Check<CLIErrorWordingTests>] = [
    Check("anImportThatStopsAtABatchSaysWhatStays", CLIErrorWordingTests.anImportThatStopsAtABatchSaysWhatStays),
    Check("anyOtherErrorPrintsItsOwnDescription", CLIErrorWordingTests.anyOtherErrorPrintsItsOwnDescription),
    Check("theCommandLinePrintsWhatItPrintedBeforeTheLibraryLostItsWords",
          CLIErrorWordingTests.theCommandLinePrintsWhatItPrintedBeforeTheLibraryLostItsWords),
]
