/// A stream of bytes read front to back: a file, standard input, or a member of a zip archive being inflated.
protocol ByteReader: AnyObject {
    /// Fills the start of `buffer` and returns how many bytes were written; 0 only at the end of the stream.
    ///
    /// - Throws: ``ImportError`` when the underlying file or archive cannot be read.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension ByteReader {
    /// Reads until `buffer` is full or the stream ends; returns the count read.
    func readFully(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var total = 0
        while total < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]))
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// Up to `count` bytes from the stream, and the error that stopped the reading early, if one did (so that the
    /// bytes before a damaged or truncated part can still be used).
    func readPrefix(_ count: Int) -> (bytes: [UInt8], failure: Error?) {
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        var failure: Error?
        bytes.withUnsafeMutableBytes { buffer in
            while total < count {
                do {
                    let read = try self.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]))
                    if read == 0 { break }
                    total += read
                } catch {
                    failure = error
                    break
                }
            }
        }
        bytes.removeLast(count - total)
        return (bytes, failure)
    }

    /// Up to `count` bytes from the stream (fewer only at its end).
    func readBytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try bytes.withUnsafeMutableBytes { try readFully(into: $0) }
        bytes.removeLast(count - read)
        return bytes
    }
}

/// Bytes already read from a stream (to sniff its format) followed by the rest of that stream; bytes read too far
/// can be pushed back.
final class PrefixedByteReader: ByteReader {
    private var prefix: [UInt8]
    private var offset = 0
    private let rest: ByteReader

    init(prefix: [UInt8], rest: ByteReader) {
        self.prefix = prefix
        self.rest = rest
    }

    /// Puts `bytes` back in front of what is still to be read.
    func pushBack(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        prefix = bytes + prefix[offset...]
        offset = 0
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset < prefix.count {
            let count = min(buffer.count, prefix.count - offset)
            prefix.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
            }
            offset += count
            if offset == prefix.count {
                prefix = []
                offset = 0
            }
            return count
        }
        return try rest.read(into: buffer)
    }
}

/// A stream that fails with a stored error: what is left of a stream whose reading already failed.
final class FailedByteReader: ByteReader {
    private let error: Error

    init(_ error: Error) { self.error = error }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { throw error }
}
