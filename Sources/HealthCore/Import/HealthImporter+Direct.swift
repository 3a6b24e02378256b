import Foundation

extension HealthImporter {
    /// Stores records the reader encoded straight from the export's bytes (``DirectRecordEncoder``): the same
    /// identity, duplicate check, counts, batches and store lines as ``accept(_:computeIdentity:)`` gives the samples
    /// they stand for.
    ///
    /// - Parameters:
    ///   - bytesRead: The input's bytes read when the group was handed over, for progress.
    ///   - report: Called with progress every ``progressInterval`` records.
    func accept(_ group: DirectRecordGroup, bytesRead: Int, report: (Bool, Int) -> Void) throws {
        try group.forEach { record, key, body in
            recordsRead += 1
            let uuid = RecordIdentity.uuid(ofKey: key)
            let start = Date(timeIntervalSince1970: Double(record.start))
            let end = Date(timeIntervalSince1970: Double(record.end))
            if try index.insert(type: record.type, typeKey: record.typeKey, start: start, end: end, uuid: uuid, identityUUID: uuid) {
                let pending: Int
                if encoded != nil {
                    let long = Double(record.end - record.start) > JSONFileStore.longSampleThreshold
                    encoded!.append(type: record.type, typeKey: record.typeKey, start: start, long: long) { out in
                        out.append("{\"uuid\":\"")
                        SampleLineWriter.appendUUID(uuid, to: out)
                        out.append(body)
                    }
                    pending = encoded!.count
                } else {
                    directInBatch += 1
                    pending = directInBatch
                }
                count(record.type, typeKey: record.typeKey) { $0.added += 1 }
                if pending >= batchSize { try flush() }
            } else {
                count(record.type, typeKey: record.typeKey) { $0.alreadyPresent += 1 }
            }
            if recordsRead % progressInterval == 0 { report(false, bytesRead) }
        }
    }
}
