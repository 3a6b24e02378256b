import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The public document API reads and writes only plain `NAME.json` documents: never the permissions file by another
/// spelling, never the store's marker, counter, lock or compaction record, never a path outside the folder.
struct DocumentNameTests {
    private struct Note: Codable, Equatable { var text = "" }

    @Test func namesThatWouldReachTheStoresOwnFilesAreRefusedAndChangeNothing() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            try store.save([TestSupport.quantitySample(.water, 250, "mL", start: "2024-06-01T08:00:00Z")])
            let before = TestSupport.walkFiles(folder + "/store")
            for name in ["./authorization.json", "hkctl-store.json", "compaction.json", "sequence", ".lock", "journal.jsonl",
                         "operations.jsonl", "../outside.json", "samples/x.json", ".hidden.json", ".json", "notes.txt", ""] {
                #expect(throws: StoreError.notADocument(name)) {
                    try store.updateDocument(name, initial: Note()) { $0.text = "overwritten" }
                }
                #expect(throws: StoreError.notADocument(name)) { _ = try store.document(name, default: Note()) }
            }
            #expect(throws: AuthorizationError.privateDocument("authorization.json")) {
                try store.updateDocument("authorization.json", initial: Note()) { $0.text = "x" }
            }
            expectEqual(TestSupport.walkFiles(folder + "/store"), before)
            #expect(!FileManager.default.fileExists(atPath: folder + "/outside.json"))
            // Plain names are documents.
            try store.updateDocument("my-notes_v2.json", initial: Note()) { $0.text = "kept" }
            try expectEqual(store.document("my-notes_v2.json", default: Note()), Note(text: "kept"))
        }
    }
}
