import CZlib

/// Inflates a raw deflate stream (a zip member) read from another byte stream, through the system zlib.
///
/// It checks the member's CRC-32 and size at the end when they are known, and reports a stream that ends
/// before the deflate data does as a truncated archive. After the end of the deflate data, ``unusedInput``
/// holds the compressed bytes it read past it, so a sequential zip reader can continue from there.
final class Inflater: ByteReader {
    private let source: ByteReader
    private var remainingInput: Int
    private let expectedCRC: UInt32?
    private let expectedSize: Int?
    private let memberName: String
    private let archiveName: String
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    private var sourceEnded = false
    private var finished = false
    private var crc: UInt32 = 0
    private var produced = 0
    /// Compressed bytes read from the source beyond the end of the deflate data.
    private(set) var unusedInput: [UInt8] = []

    /// Creates an inflater.
    ///
    /// - Parameters:
    ///   - source: The compressed bytes.
    ///   - compressedSize: How many bytes of `source` belong to the member, if known.
    ///   - expectedCRC: The member's CRC-32, if known.
    ///   - expectedSize: The member's uncompressed size, if known.
    ///   - memberName: The member, for messages.
    ///   - archiveName: The archive, for messages.
    init(source: ByteReader, compressedSize: Int?, expectedCRC: UInt32?, expectedSize: Int?, memberName: String,
         archiveName: String) throws {
        self.source = source
        remainingInput = compressedSize ?? Int.max
        self.expectedCRC = expectedCRC
        self.expectedSize = expectedSize
        self.memberName = memberName
        self.archiveName = archiveName
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        let status = inflateInit2_(stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            input.deallocate()
            throw ImportError.corruptArchive(archiveName, reason: "zlib could not start (status \(status))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    /// Uncompressed bytes produced so far.
    var producedCount: Int { produced }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        while true {
            if stream.pointee.avail_in == 0 && !sourceEnded {
                let want = min(input.count, remainingInput)
                let count = want == 0 ? 0 : try source.read(into: UnsafeMutableRawBufferPointer(rebasing: input[0..<want]))
                if count == 0 { sourceEnded = true }
                remainingInput -= count
                stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = uInt(count)
            }
            stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(buffer.count)
            let status = inflate(stream, Z_NO_FLUSH)
            let count = buffer.count - Int(stream.pointee.avail_out)
            if count > 0 {
                crc = UInt32(truncatingIfNeeded: crc32(uLong(crc), buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(count)))
                produced += count
            }
            switch status {
            case Z_STREAM_END:
                finished = true
                let left = Int(stream.pointee.avail_in)
                if left > 0 {
                    unusedInput = Array(UnsafeRawBufferPointer(start: stream.pointee.next_in, count: left))
                }
                try checkEnd()
                return count
            case Z_OK, Z_BUF_ERROR:
                if count > 0 { return count }
                if sourceEnded && stream.pointee.avail_in == 0 {
                    throw ImportError.corruptArchive(archiveName, reason: "the member '\(memberName)' ends early (the file is truncated)")
                }
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "status \(status)"
                throw ImportError.corruptArchive(archiveName, reason: "the member '\(memberName)' does not inflate (\(message))")
            }
        }
    }

    private func checkEnd() throws {
        if let expectedSize, expectedSize != produced {
            throw ImportError.corruptArchive(archiveName, reason: "the member '\(memberName)' inflates to \(produced) bytes, not the \(expectedSize) recorded")
        }
        if let expectedCRC, expectedCRC != crc {
            throw ImportError.corruptArchive(archiveName, reason: "the member '\(memberName)' fails its CRC check")
        }
    }

    /// The CRC-32 of everything inflated so far.
    var checksum: UInt32 { crc }
}

/// At most `limit` bytes of another stream (a stored zip member).
final class LimitedByteReader: ByteReader {
    private let source: ByteReader
    private var remaining: Int

    init(source: ByteReader, limit: Int) {
        self.source = source
        remaining = limit
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard remaining > 0 else { return 0 }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, remaining)]))
        remaining -= count
        return count
    }
}
