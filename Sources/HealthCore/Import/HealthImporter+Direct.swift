extension HealthImporter {
    /// Stores records the reader took straight from the export's bytes (``DirectRecordEncoder``): the same identity,
    /// duplicate check, counts, batches and store lines as ``accept(_:computeIdentity:)`` gives the samples they
    /// stand for.
    ///
    /// - Parameters:
    ///   - composer: Writes the records' keys and lines (its caches last the whole import).
    ///   - bytesRead: The input's bytes read when the group was handed over, for progress.
    ///   - report: Called with progress every ``progressInterval`` records.
    func accept(_ group: DirectRecordGroup, composer: inout DirectLineComposer, bytesRead: Int,
                report: (Bool, Int) -> Void) throws {
        let fields = group.fields!
        try fields.bytes.withUnsafeBufferPointer { table in
            try fields.fields.withUnsafeBufferPointer { fieldList in
                let view = DirectLineComposer.View(table: table, fields: fieldList, extra: group.bytes.bytes)
                for record in group.records {
                    try accept(record, type: fields.typeNames[Int(record.type)], view: view, composer: &composer)
                    if recordsRead % progressInterval == 0 { report(false, bytesRead) }
                }
            }
        }
    }

    private func accept(_ record: DirectRecordGroup.Record, type: String, view: DirectLineComposer.View,
                        composer: inout DirectLineComposer) throws {
        recordsRead += 1
        let typeKey = Int(record.type) + 1
        let identity = composer.uuid(of: record, in: view)
        let start = Date(timeIntervalSince1970: Double(record.start))
        let end = Date(timeIntervalSince1970: Double(record.end))
        let long = Double(record.end - record.start) > JSONFileStore.longSampleThreshold
        let counting = encoded == nil
        let found = try index.insertRecord(type: type, typeKey: typeKey, start: start, end: end, identity: identity,
                                           loose: { composer.looseUUID(of: record, in: view) }) { uuid in
            // Kept in case it is added later after all: its line, made now while the group's bytes are here (a dry
            // run keeps the sample it would store, for the HAE samples it would supersede).
            guard !counting else {
                return .counted(dryRunHAE == nil ? nil : composedSample(of: record, uuid: uuid, in: view, composer: &composer))
            }
            let line = ByteBuffer(capacity: 512)
            composer.appendLine(of: record, uuid: uuid, in: view, to: line)
            return .line(Array(line.bytes), long: long)
        }
        guard let uuid = found else {
            count(type, typeKey: typeKey) { $0.alreadyPresent += 1 }
            if !index.released.isEmpty { try addReleased() }
            return
        }
        let pending: Int
        if encoded != nil {
            encoded!.append(type: type, typeKey: typeKey, start: start, long: long, uuid: uuid, identity: uuid) { out in
                composer.appendLine(of: record, uuid: uuid, in: view, to: out)
            }
            pending = encoded!.count
        } else {
            directInBatch += 1
            pending = pendingInBatch
            // The record as it would be stored, for the HAE samples it would supersede.
            try noteDryRunAddition(composedSample(of: record, uuid: uuid, in: view, composer: &composer),
                                   type: type, start: start, end: end)
        }
        count(type, typeKey: typeKey) { $0.added += 1 }
        addedMembers.note(uuid, type: type, typeKey: typeKey, generic: false)
        if pending >= batchSize { try flush() }
    }

    /// The sample a record read straight from the export's bytes is stored as (for a dry run, which stores nothing).
    private func composedSample(of record: DirectRecordGroup.Record, uuid: UUID, in view: DirectLineComposer.View,
                                composer: inout DirectLineComposer) -> Sample? {
        guard let fileStore = store as? JSONFileStore else { return nil }
        let line = ByteBuffer(capacity: 512)
        composer.appendLine(of: record, uuid: uuid, in: view, to: line)
        line.append("}" as StaticString)  // the line ends without its change number
        return fileStore.decodeComposedLine(Array(line.bytes))
    }
}
