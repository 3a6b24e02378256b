#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// Where an output may go (issue 29, item 7): ``JSONFileStore/encloses(_:)`` knows a path inside the store however it
/// is spelled (links, `..`, another name of the store folder); paths relative to the working folder are tested end to end
/// (`OutputInPlaceTests`), since a test here must not change the process's working folder.
struct StoreEnclosureTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: storeEnclosureTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }


    private func withStore(_ body: (JSONFileStore, String) throws -> Void) throws {
        try TestSupport.withOneWaterSampleStore(body)
    }

    func encloseKnowsEverySpellingOfAPathInsideTheStore() throws {
        try withStore { store, path in
            let parent = PathText.parent(of: path)
            expectEqual(symlink(path, parent + "/alias"), 0)
            expectEqual(symlink(path + "/operations.jsonl", parent + "/link-to-log"), 0)
            expectEqual(symlink(parent + "/elsewhere.jsonl", path + "/link-out"), 0)
            let inside = [path, path + "/", path + "/operations.jsonl", path + "/new.jsonl", path + "/samples",
                          path + "/samples/new/deeper.jsonl", path + "/samples/../sequence", parent + "/alias/hkctl-store.json",
                          parent + "/alias", parent + "/./store/x", parent + "/link-to-log", path + "/link-out"]
            for candidate in inside { #expect(store.encloses(candidate), "\(candidate)") }
            let outside = [parent, parent + "/store-backup.jsonl", parent + "/storex/a", "/tmp", "/dev/null",
                           path + "/../elsewhere.jsonl", parent + "/missing/folder/file"]
            for candidate in outside { #expect(!store.encloses(candidate), "\(candidate)") }
        }
    }

    func aStoreThatDoesNotExistEnclosesNothing() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            #expect(!store.encloses(folder + "/store/operations.jsonl"))
        }
    }
}

/// The checks ``StoreEnclosureTests/checks(_:)`` runs.
private let storeEnclosureTestsChecks: [Check<StoreEnclosureTests>] = [
    Check("encloseKnowsEverySpellingOfAPathInsideTheStore",
          StoreEnclosureTests.encloseKnowsEverySpellingOfAPathInsideTheStore),
    Check("aStoreThatDoesNotExistEnclosesNothing", StoreEnclosureTests.aStoreThatDoesNotExistEnclosesNothing),
]
