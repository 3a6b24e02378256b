/// The store's small JSON documents, each read the way its readers read it, so that the doctor reports every document
/// that makes a read fail (or, for the compaction record, answer wrongly).
extension StoreDoctor {
    /// A document of the store, who reads it, and how.
    struct DocumentCheck: Sendable {
        /// The file name in the store folder.
        var name: String
        /// What a bad copy does to the reads of it, and the fix, for the finding.
        var consequence: String
        /// Reads it as its readers do; throws what they would.
        var read: @Sendable (JSONFileStore) throws -> Void
    }

    /// Every document of the store, and how it is read.
    static let documentChecks: [DocumentCheck] = [
        DocumentCheck(name: "settings.json", consequence: "reading the settings (preferred units) fails until it is fixed by hand or moved away (the doctor does not rebuild it)") {
            _ = try $0.privateDocument("settings.json", default: Settings())
        },
        DocumentCheck(name: "goals.json", consequence: "reading the goals fails until it is fixed by hand or moved away (the doctor does not rebuild it)") {
            _ = try $0.privateDocument("goals.json", default: GoalsDocument())
        },
        DocumentCheck(name: "characteristics.json", consequence: "reading the characteristics, imports and exports fail until it is fixed by hand or moved away (the doctor does not rebuild it)") {
            _ = try $0.privateDocument("characteristics.json", default: Characteristics())
        },
        DocumentCheck(name: SourcePriorities.documentName, consequence: "statistics and the source priorities fail until it is fixed by hand or moved away (the doctor does not rebuild it)") {
            _ = try $0.sourcePriorities()
        },
        DocumentCheck(name: AuthorizationRecord.fileName, consequence: "authorization, and every use of the store by a source other than the owner, fail until it is fixed by hand or moved away (the doctor does not rebuild it)") {
            _ = try $0.privateDocument(AuthorizationRecord.fileName, default: AuthorizationState())
        },
        DocumentCheck(name: PushTokens.fileName, consequence: "push tokens can be neither made, listed nor checked (every push is refused) until it is fixed by hand or moved away (then make the tokens again)") {
            _ = try $0.privateDocument(PushTokens.fileName, default: PushTokens())
        },
        DocumentCheck(name: "compaction.json", consequence: "changes(since:) then accepts anchors older than the deletions compaction dropped, "
                      + "and misses those deletions; fix it by hand (docs/STORE.md)") {
            try CompactionRecord.check($0)
        },
    ]

    /// Checks one document: a JSON object, in the shape its readers read.
    func checkDocument(_ check: DocumentCheck, into report: inout DoctorReport) {
        let bytes: [UInt8]?
        do { bytes = try POSIXFile.readFile(store.path + "/" + check.name) } catch {
            report.findings.append(DoctorFinding(.error, file: check.name, message: "\(error)"))
            return
        }
        guard let bytes else { return }
        report.filesChecked += 1
        let fix = "; " + check.consequence
        guard JSONObjectCheck.isObject(bytes) else {
            report.findings.append(DoctorFinding(.error, file: check.name, line: 1, message: "it is not a JSON object" + fix))
            return
        }
        do {
            try check.read(store)
        } catch let StoreError.corrupt(_, _, reason) {
            report.findings.append(DoctorFinding(.error, file: check.name, line: 1, message: reason + fix))
        } catch {
            report.findings.append(DoctorFinding(.error, file: check.name, line: 1, message: "\(error)"))
        }
    }

    /// `goals.json`, daily goals per type name: `{"amounts": {"water": {"value": 2, "unit": "L"}}}`, `amounts`
    /// optional. The goals themselves belong to the hkctl tool (HealthKit has none); the doctor reads the document in
    /// the shape that tool decodes it, so that it reports every copy that would make reading the goals fail.
    private struct GoalsDocument: Decodable {
        struct Amount: Decodable {
            var value: Double
            var unit: String
        }

        var amounts: [String: Amount]?
    }

    /// `compaction.json` as compaction writes it: `{"tombstonesDroppedThrough": N}`, a change number.
    private struct CompactionRecord: Decodable {
        var tombstonesDroppedThrough: UInt64

        static func check(_ store: JSONFileStore) throws {
            guard let bytes = try POSIXFile.readFile(store.compactionPath) else { return }
            let record: CompactionRecord
            do {
                record = try JSONDecoder().decode(CompactionRecord.self, from: Data(bytes))
            } catch {
                throw StoreError.corrupt(store.compactionPath, line: 1, reason: "it is not a valid compaction.json "
                    + "document: \(JSONFileStore.decodingReason(error)) (it must be {\"tombstonesDroppedThrough\": N}, "
                    + "a change number)")
            }
            guard record.tombstonesDroppedThrough <= ChangeNumbers.maximum else {
                throw StoreError.corrupt(store.compactionPath, line: 1, reason: "tombstonesDroppedThrough "
                    + "\(record.tombstonesDroppedThrough) is past the last change number, \(ChangeNumbers.maximum)")
            }
        }
    }
}
