/// Reads a zip archive front to back through its local headers, for standard input and for archives whose
/// central directory is missing because the file was cut short.
///
/// Deflated members end by themselves, so they can be streamed even when their sizes follow the data (the
/// Health app sets that flag). A stored member whose size follows its data cannot be streamed.
struct ZipStream {
    private let input: PrefixedByteReader
    private let archiveName: String

    init(input: ByteReader, archiveName: String) {
        self.input = input as? PrefixedByteReader ?? PrefixedByteReader(prefix: [], rest: input)
        self.archiveName = archiveName
    }

    /// Walks the members in order and returns the stream of the first one that `accept` takes, given the first
    /// bytes of its content (up to `sniffLength`); the returned stream starts again at its first byte.
    ///
    /// - Returns: The member's name and stream, or the names of all members when none was accepted.
    /// - Throws: ``ImportError`` for damaged or unstreamable archives.
    func firstMember(sniffLength: Int, where accept: ([UInt8]) -> Bool) throws -> Result {
        var seen: [String] = []
        while true {
            let signature = try input.readBytes(4)
            guard signature.count == 4, ZipArchive.le32(signature, 0) == 0x0403_4B50 else { return .notFound(seen) }
            let header = try input.readBytes(26)
            guard header.count == 26 else { throw truncated() }
            let flags = Int(ZipArchive.le16(header, 2))
            let method = Int(ZipArchive.le16(header, 4))
            let nameLength = Int(ZipArchive.le16(header, 22))
            let extraLength = Int(ZipArchive.le16(header, 24))
            let nameBytes = try input.readBytes(nameLength)
            let extra = try input.readBytes(extraLength)
            guard nameBytes.count == nameLength, extra.count == extraLength else { throw truncated() }
            var member = ZipArchive.Member(
                name: ZipArchive.decodeName(nameBytes), method: method, flags: flags, crc: ZipArchive.le32(header, 10),
                compressedSize: Int(ZipArchive.le32(header, 14)), uncompressedSize: Int(ZipArchive.le32(header, 18)),
                localHeaderOffset: 0)
            let isZip64 = member.compressedSize == 0xFFFF_FFFF || member.uncompressedSize == 0xFFFF_FFFF
            ZipArchive.applyZip64(extra, to: &member)
            seen.append(member.name)
            let sizesFollow = flags & 0x08 != 0
            let content: ByteReader
            var inflater: Inflater?
            switch method {
            case 8:
                let stream = try Inflater(
                    source: input, compressedSize: sizesFollow ? nil : member.compressedSize,
                    expectedCRC: sizesFollow ? nil : member.crc, expectedSize: sizesFollow ? nil : member.uncompressedSize,
                    memberName: member.name, archiveName: archiveName)
                inflater = stream
                content = stream
            case 0:
                if sizesFollow { throw ImportError.cannotStreamArchive(member.name) }
                content = LimitedByteReader(source: input, limit: member.compressedSize)
            default:
                if sizesFollow { throw ImportError.unsupportedCompression(member.name, method: method) }
                try skip(member.compressedSize)
                continue
            }
            let (head, failure) = content.readPrefix(sniffLength)
            if !member.isDirectory, !head.isEmpty, accept(head) {
                // A member cut short is still read up to the cut; the error comes after those bytes.
                let rest = failure.map { FailedByteReader($0) } ?? content
                return .found(name: member.name, reader: PrefixedByteReader(prefix: head, rest: rest))
            }
            if let failure { throw failure }
            // Not it: read to the member's end, give back what the inflater read too far, skip the descriptor.
            try drain(content)
            if let inflater { input.pushBack(inflater.unusedInput) }
            if sizesFollow {
                let first = try input.readBytes(4)
                guard first.count == 4 else { throw truncated() }
                let hasSignature = ZipArchive.le32(first, 0) == 0x0807_4B50
                let rest = (isZip64 ? 20 : 12) - (hasSignature ? 0 : 4)
                guard try input.readBytes(rest).count == rest else { throw truncated() }
            }
        }
    }

    /// What ``firstMember(sniffLength:where:)`` found.
    enum Result {
        case found(name: String, reader: ByteReader)
        case notFound([String])
    }

    private func skip(_ count: Int) throws {
        let limited = LimitedByteReader(source: input, limit: count)
        guard try drain(limited) == count else { throw truncated() }
    }

    @discardableResult
    private func drain(_ reader: ByteReader) throws -> Int {
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let count = try scratch.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { return total }
            total += count
        }
    }

    private func truncated() -> ImportError {
        .corruptArchive(archiveName, reason: "the archive ends in the middle of a member (the file is truncated)")
    }
}
