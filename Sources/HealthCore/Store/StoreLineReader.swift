#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits the bytes of a store file into lines: the one line reader behind write-time validation,
/// ``StoreDoctor`` and the store fuzz target.
enum StoreLineReader {
    /// One line: its 1-based number, its byte range in the buffer (without the newline) and whether a newline
    /// ended it (a final line without one is a write torn by a crash).
    struct Line {
        var number: Int
        var range: Range<Int>
        var terminated: Bool
    }

    /// Calls `body` with each line of `bytes`, numbering from `firstNumber`.
    static func forEachLine(in bytes: UnsafeBufferPointer<UInt8>, firstNumber: Int = 1,
                            _ body: (Line) throws -> Void) rethrows {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        var number = firstNumber
        while start < bytes.count {
            if let found = memchr(base + start, 0x0A, bytes.count - start) {
                let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                try body(Line(number: number, range: start..<end, terminated: true))
                start = end + 1
            } else {
                try body(Line(number: number, range: start..<bytes.count, terminated: false))
                start = bytes.count
            }
            number += 1
        }
    }

    /// Whether a line holds only spaces (and a carriage return): such lines are skipped.
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x0D }
    }

    /// Whether a final line that does not decode is what a crash leaves (a torn write): bytes that are not one
    /// complete JSON object, or that hold NUL bytes (a file extended but never written). A complete JSON object
    /// with a wrong field is damage, not a tear, and is reported like a bad line in the middle.
    static func isTornWrite(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if line.contains(0) { return true }
        var scanner = JSONLineScanner(line)
        guard scanner.peek() == UInt8(ascii: "{"), (try? scanner.skipValue()) != nil else { return true }
        scanner.skipWhitespace()
        return !scanner.atEnd
    }

    /// Why a sample line is not valid, or nil when it decodes; also returns the sample and its change number.
    ///
    /// Beyond what the codec checks, the line must be valid UTF-8: garbage bytes inside a string would
    /// otherwise be read as replacement characters.
    static func checkSampleLine(_ line: UnsafeBufferPointer<UInt8>, codec: inout SampleLineCodec)
        -> (sample: Sample?, sequence: UInt64, failure: String?) {
        if let failure = utf8Failure(line) { return (nil, 0, failure) }
        do {
            let sample = try codec.decode(line)
            return (sample, codec.lastSequence, nil)
        } catch {
            return (nil, 0, "\(error)")
        }
    }

    /// Why a tombstone line is not valid, or nil.
    static func checkTombstoneLine(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        if let failure = utf8Failure(line) { return failure }
        return JSONFileStore.decodeTombstone(line) == nil ? "not a tombstone (it needs uuid, type, deletedAt and seq)" : nil
    }

    /// A description of the first invalid UTF-8 byte, or nil when the line is valid UTF-8.
    static func utf8Failure(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = line.baseAddress, let offset = UTF8Validation.firstInvalidOffset(base, count: line.count)
        else { return nil }
        return "invalid UTF-8 at byte \(offset + 1)"
    }
}
