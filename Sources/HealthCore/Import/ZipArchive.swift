/// A zip archive read through its central directory, as the Health app writes `export.zip`.
///
/// Member names are decoded as UTF-8 whether or not the archive sets the UTF-8 flag (the Health app does not,
/// and may write them decomposed, NFD). Zip64 sizes and offsets are supported, so exports over 4 GB open too.
/// Members are stored or deflated; deflated ones are inflated with the system zlib while they are read.
final class ZipArchive {
    /// One file in the archive.
    struct Member {
        /// The name, decoded as UTF-8 and composed (NFC).
        var name: String
        var method: Int
        var flags: Int
        var crc: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
        var isDirectory: Bool { name.hasSuffix("/") }
    }

    let file: FileByteReader
    /// The members in central-directory order.
    let members: [Member]

    /// Reads the central directory of the zip file `file`.
    ///
    /// - Returns: nil when the file has no end-of-central-directory record (a truncated archive).
    /// - Throws: ``ImportError/corruptArchive(_:reason:)`` when the directory is damaged.
    static func open(_ file: FileByteReader) throws -> ZipArchive? {
        guard let size = file.size, size >= 22 else { return nil }
        let tailLength = min(size, 65_557)
        let tail = try read(file, at: size - tailLength, count: tailLength)
        var position: Int?
        var index = tail.count - 22
        while index >= 0 {
            if tail[index] == 0x50, tail[index + 1] == 0x4B, tail[index + 2] == 0x05, tail[index + 3] == 0x06 {
                position = index
                break
            }
            index -= 1
        }
        guard let eocd = position else { return nil }
        var count = Int(le16(tail, eocd + 10))
        var directorySize = Int(le32(tail, eocd + 12))
        var directoryOffset = Int(le32(tail, eocd + 16))
        if eocd >= 20, le32(tail, eocd - 20) == 0x0706_4B50 {
            let recordOffset = Int(le64(tail, eocd - 12))
            let record = try read(file, at: recordOffset, count: 56)
            guard record.count == 56, le32(record, 0) == 0x0606_4B50 else {
                throw ImportError.corruptArchive(file.displayName, reason: "the zip64 directory record is missing")
            }
            count = Int(le64(record, 32))
            directorySize = Int(le64(record, 40))
            directoryOffset = Int(le64(record, 48))
        }
        guard directoryOffset >= 0, directorySize >= 0, directoryOffset + directorySize <= size else {
            throw ImportError.corruptArchive(file.displayName, reason: "the central directory points outside the file")
        }
        let directory = try read(file, at: directoryOffset, count: directorySize)
        var members: [Member] = []
        var cursor = 0
        for _ in 0..<count {
            guard cursor + 46 <= directory.count, le32(directory, cursor) == 0x0201_4B50 else {
                throw ImportError.corruptArchive(file.displayName, reason: "the central directory entry \(members.count + 1) is damaged")
            }
            let nameLength = Int(le16(directory, cursor + 28))
            let extraLength = Int(le16(directory, cursor + 30))
            let commentLength = Int(le16(directory, cursor + 32))
            guard cursor + 46 + nameLength + extraLength <= directory.count else {
                throw ImportError.corruptArchive(file.displayName, reason: "the central directory is cut short")
            }
            var member = Member(
                name: decodeName(directory[(cursor + 46)..<(cursor + 46 + nameLength)]),
                method: Int(le16(directory, cursor + 10)), flags: Int(le16(directory, cursor + 8)),
                crc: le32(directory, cursor + 16), compressedSize: Int(le32(directory, cursor + 20)),
                uncompressedSize: Int(le32(directory, cursor + 24)), localHeaderOffset: Int(le32(directory, cursor + 42)))
            applyZip64(Array(directory[(cursor + 46 + nameLength)..<(cursor + 46 + nameLength + extraLength)]), to: &member)
            members.append(member)
            cursor += 46 + nameLength + extraLength + commentLength
        }
        return ZipArchive(file: file, members: members)
    }

    private init(file: FileByteReader, members: [Member]) {
        self.file = file
        self.members = members
    }

    /// A stream of the member's uncompressed bytes.
    ///
    /// - Throws: ``ImportError/unsupportedCompression(_:method:)`` or ``ImportError/corruptArchive(_:reason:)``.
    func reader(for member: Member) throws -> ByteReader {
        let header = try ZipArchive.read(file, at: member.localHeaderOffset, count: 30)
        guard header.count == 30, ZipArchive.le32(header, 0) == 0x0403_4B50 else {
            throw ImportError.corruptArchive(file.displayName, reason: "the local header of '\(member.name)' is missing")
        }
        let dataOffset = member.localHeaderOffset + 30 + Int(ZipArchive.le16(header, 26)) + Int(ZipArchive.le16(header, 28))
        let region = RegionByteReader(file: file, offset: dataOffset, length: member.compressedSize)
        switch member.method {
        case 0:
            return region
        case 8:
            return try Inflater(source: region, compressedSize: member.compressedSize, expectedCRC: member.crc,
                                expectedSize: member.uncompressedSize, memberName: member.name, archiveName: file.displayName)
        default:
            throw ImportError.unsupportedCompression(member.name, method: member.method)
        }
    }

    // MARK: - Helpers shared with the sequential reader

    /// A member name: UTF-8 (the Health app's choice even without the flag), composed to NFC for display.
    static func decodeName<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let name = String(decoding: Array(bytes), as: UTF8.self)
        #if canImport(FoundationEssentials)
        // The standard library's NFC (the one its string comparison uses); FoundationEssentials has none.
        return String(decoding: name._nfcCodeUnits, as: UTF8.self)
        #else
        return name.precomposedStringWithCanonicalMapping
        #endif
    }

    /// Replaces 32-bit sizes and offset marked 0xFFFFFFFF with the values of the zip64 extra field.
    static func applyZip64(_ extra: [UInt8], to member: inout Member) {
        var cursor = 0
        while cursor + 4 <= extra.count {
            let id = le16(extra, cursor)
            let length = Int(le16(extra, cursor + 2))
            guard cursor + 4 + length <= extra.count else { return }
            if id == 0x0001 {
                var field = cursor + 4
                let end = field + length
                if member.uncompressedSize == 0xFFFF_FFFF, field + 8 <= end {
                    member.uncompressedSize = Int(le64(extra, field)); field += 8
                }
                if member.compressedSize == 0xFFFF_FFFF, field + 8 <= end {
                    member.compressedSize = Int(le64(extra, field)); field += 8
                }
                if member.localHeaderOffset == 0xFFFF_FFFF, field + 8 <= end {
                    member.localHeaderOffset = Int(le64(extra, field))
                }
                return
            }
            cursor += 4 + length
        }
    }

    static func read(_ file: FileByteReader, at offset: Int, count: Int) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try bytes.withUnsafeMutableBytes { try file.read(at: offset, into: $0) }
        bytes.removeLast(count - read)
        return bytes
    }

    static func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    static func le64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(le32(bytes, at)) | UInt64(le32(bytes, at + 4)) << 32 }
}

/// A byte range of a file read with `pread`, so several can be open at once.
final class RegionByteReader: ByteReader {
    private let file: FileByteReader
    private var offset: Int
    private var remaining: Int

    init(file: FileByteReader, offset: Int, length: Int) {
        self.file = file
        self.offset = offset
        remaining = length
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard remaining > 0 else { return 0 }
        let count = try file.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, remaining)]))
        offset += count
        remaining -= count
        if count == 0 { remaining = 0 }
        return count
    }
}
