import Dispatch

extension HealthImporter {
    /// Reads an Apple Health export on this thread while a second thread identifies, de-duplicates, encodes and
    /// saves what it finds, in the order it was found: the receipt and the store are what one thread would make.
    ///
    /// - Parameters:
    ///   - bytesRead: The input's bytes read so far, for progress.
    ///   - report: Called with progress (on the storing thread).
    func readExport(_ reader: HealthExportReader, bytesRead: @escaping () -> Int,
                    report: @escaping (_ finished: Bool, _ bytesRead: Int) -> Void) throws {
        reader.deferIdentity = true
        let pipeline = ImportPipeline<HealthExportReader.Event>(capacity: 32)
        let done = DispatchSemaphore(value: 0)
        let consumer = UncheckedBox((importer: self, report: report))
        let thread = WorkerThread {
            let (importer, report) = consumer.value
            while let chunk = pipeline.receive() {
                var events = chunk.items
                do {
                    for index in events.indices {
                        // Each event is moved out of the array (an empty one left in its place) rather than copied.
                        var event = HealthExportReader.Event.problem(line: 0, message: "")
                        swap(&event, &events[index])
                        try importer.handle(event, bytesRead: chunk.mark, report: report)
                    }
                } catch {
                    pipeline.fail(error)
                    break
                }
            }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()

        var readError: ImportError?
        var summary: HealthExportReader.Summary?
        var chunk: [HealthExportReader.Event] = []
        let chunkSize = 512
        chunk.reserveCapacity(chunkSize)
        func send() -> Bool {
            defer { chunk.removeAll(keepingCapacity: true) }
            return pipeline.send(chunk, mark: bytesRead())
        }
        do {
            summary = try reader.read { (event: consuming HealthExportReader.Event) in
                // A group of direct records holds up to 512 records: it goes at once.
                var isGroup = false
                if case .direct = event { isGroup = true }
                chunk.append(event)
                if chunk.count == chunkSize || isGroup {
                    guard send() else { throw PipelineStopped() }
                }
            }
            if !chunk.isEmpty { _ = send() }
        } catch let error as ImportError {
            if !chunk.isEmpty { _ = send() }
            readError = error
        } catch is PipelineStopped {
        } catch {
            pipeline.finish()
            done.wait()
            throw error
        }
        pipeline.finish()
        done.wait()
        // The storing thread's error came first in input order: reading stopped because of it.
        if let failure = pipeline.failure { throw failure }
        if let readError { try inputFailed(readError, line: reader.currentLine) }
        if let summary {
            receipt.exportDate = summary.exportDate
            receipt.locale = summary.locale
            receipt.skippedElements = summary.skippedElements
            receipt.skippedAttributes.merge(summary.skippedAttributes) { $0 + $1 }
            (receipt.missingRouteFiles, receipt.missingRouteFileCount) = summary.missingRoutes
            receipt.complete = summary.complete
        }
    }

    private func handle(_ event: consuming HealthExportReader.Event, bytesRead: Int, report: (Bool, Int) -> Void) throws {
        switch consume event {
        case let .record(record):
            try accept(record, computeIdentity: false)
            if recordsRead % progressInterval == 0 { report(false, bytesRead) }
        case let .characteristics(attributes, line):
            readCharacteristics(attributes, line: line)
        case let .problem(line, message):
            receipt.record(ImportReceipt.Problem(line: line, type: nil, reason: message))
        case let .direct(group):
            try accept(group, composer: &composer!, bytesRead: bytesRead, report: report)
        }
    }
}

/// The reading thread's signal that the storing thread failed.
private struct PipelineStopped: Error {}

/// Hands a value that is used by one thread at a time to another thread.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
