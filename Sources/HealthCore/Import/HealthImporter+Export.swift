import Foundation

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
        typealias Item = ExportItem
        let pipeline = ImportPipeline<Item>(capacity: 32)
        let done = DispatchSemaphore(value: 0)
        let consumer = UncheckedBox((importer: self, report: report))
        let thread = Thread {
            let (importer, report) = consumer.value
            while let chunk = pipeline.receive() {
                do {
                    for item in chunk { try importer.handle(item.event, bytesRead: item.bytesRead, report: report) }
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
        var chunk: [Item] = []
        let chunkSize = 512
        chunk.reserveCapacity(chunkSize)
        do {
            summary = try reader.read { event in
                chunk.append(ExportItem(event: event, bytesRead: bytesRead()))
                if chunk.count == chunkSize {
                    guard pipeline.send(chunk) else { throw PipelineStopped() }
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            if !chunk.isEmpty { _ = pipeline.send(chunk) }
        } catch let error as ImportError {
            if !chunk.isEmpty { _ = pipeline.send(chunk) }
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
            receipt.complete = summary.complete
        }
    }

    private func handle(_ event: HealthExportReader.Event, bytesRead: Int, report: (Bool, Int) -> Void) throws {
        switch event {
        case let .record(record):
            try accept(record, computeIdentity: false)
            if recordsRead % progressInterval == 0 { report(false, bytesRead) }
        case let .characteristics(attributes, line):
            readCharacteristics(attributes, line: line)
        case let .problem(line, message):
            receipt.record(ImportReceipt.Problem(line: line, type: nil, reason: message))
        }
    }
}

/// What the reading thread hands over: an event, and how far the input was read when it was found.
struct ExportItem {
    var event: HealthExportReader.Event
    var bytesRead: Int
}

/// The reading thread's signal that the storing thread failed.
private struct PipelineStopped: Error {}

/// Hands a value that is used by one thread at a time to another thread.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
