#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Finds what an import reads: an `export.xml`, the export inside an `export.zip` (found by content, whatever the
/// member is called), or the store's own jsonl export (``ExportFormat/jsonl``); from a file or from standard input.
struct ImportInput {
    /// The content stream, positioned at its first byte.
    let reader: ByteReader
    let kind: ImportReceipt.InputKind
    /// The zip member read, for archives.
    let member: String?
    /// The file underneath (its name for messages).
    let file: FileByteReader
    /// What progress is measured on: the file, or the export member of a zip read through its directory.
    let meter: ImportMeter
    /// Where the GPX files of workout routes are (an archive read through its directory, the folder of an
    /// `export.xml`); nil when they cannot be reached (standard input, an archive read in order).
    var routeFiles: WorkoutRouteFiles? = nil

    /// How many leading bytes are looked at to recognise the content.
    static let sniffLength = 256 * 1024

    /// Opens `path` (`-` for standard input) and recognises its content.
    ///
    /// - Throws: ``ImportError`` when it cannot be opened or is not an export.
    static func open(_ path: String) throws -> ImportInput {
        let file = path == "-" ? FileByteReader(descriptor: 0, displayName: "standard input") : try FileByteReader(path: path)
        let head = try file.readBytes(sniffLength)
        let name = file.displayName
        if isZip(head) {
            if path != "-", let archive = try ZipArchive.open(file) {
                let candidates = archive.members.filter { !$0.isDirectory && $0.uncompressedSize > 0 }
                    .sorted { $0.uncompressedSize > $1.uncompressedSize }
                for member in candidates {
                    let reader = CountingByteReader(try archive.reader(for: member), totalBytes: member.uncompressedSize)
                    let (start, failure) = reader.readPrefix(sniffLength)
                    if isHealthXML(start) {
                        let rest: ByteReader = failure.map { FailedByteReader($0) } ?? reader
                        return ImportInput(reader: try decoded(PrefixedByteReader(prefix: start, rest: rest), head: start, name: member.name),
                                           kind: .zip, member: member.name, file: file, meter: reader,
                                           routeFiles: .archive(archive))
                    }
                }
                throw ImportError.noExportInArchive(name, members: archive.members.map(\.name))
            }
            // Standard input, or an archive cut short before its directory: read the members in order.
            let stream = ZipStream(input: PrefixedByteReader(prefix: head, rest: file), archiveName: name)
            switch try stream.firstMember(sniffLength: sniffLength, where: isHealthXML) {
            case let .found(member, reader):
                let head = reader.readPrefix(sniffLength)
                let rest = PrefixedByteReader(prefix: head.bytes, rest: head.failure.map { FailedByteReader($0) } ?? reader)
                return ImportInput(reader: try decoded(rest, head: head.bytes, name: member), kind: .zip, member: member,
                                   file: file, meter: file)
            case let .notFound(members):
                throw ImportError.noExportInArchive(name, members: members)
            }
        }
        let reader = PrefixedByteReader(prefix: head, rest: file)
        if let wide = XMLEncoding.wideEncoding(head) { throw ImportError.unsupportedEncoding(name, encoding: wide) }
        if isHealthXML(head) {
            let folder = path == "-" ? nil : (path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : ".")
            return ImportInput(reader: try decoded(reader, head: head, name: name), kind: .healthXML, member: nil, file: file,
                               meter: file, routeFiles: folder.map { WorkoutRouteFiles.folder($0.isEmpty ? "/" : $0) })
        }
        if HAEParser.looksLikePayload(head) {
            return ImportInput(reader: reader, kind: .healthAutoExport, member: nil, file: file, meter: file)
        }
        if isJSONLines(head) { return ImportInput(reader: reader, kind: .jsonl, member: nil, file: file, meter: file) }
        throw ImportError.notAnExport(name, found: describe(head))
    }

    /// The XML stream read as UTF-8: transcoded when its declaration names ISO-8859-1 or Windows-1252.
    ///
    /// - Throws: ``ImportError/unsupportedEncoding(_:encoding:)`` for encodings it does not read.
    private static func decoded(_ reader: ByteReader, head: [UInt8], name: String) throws -> ByteReader {
        guard let encoding = try XMLEncoding.singleByteEncoding(of: head, name: name) else { return reader }
        return SingleByteTranscoder(reader, encoding: encoding)
    }

    static func isZip(_ head: [UInt8]) -> Bool {
        head.count >= 4 && head[0] == 0x50 && head[1] == 0x4B && (head[2] == 3 && head[3] == 4 || head[2] == 5 && head[3] == 6)
    }

    /// Whether the bytes hold a `<HealthData` start tag (after the prolog and DTD).
    static func isHealthXML(_ head: [UInt8]) -> Bool {
        let needle = Array("<HealthData".utf8)
        guard head.count > needle.count else { return false }
        return head.withUnsafeBufferPointer { bytes in
            var index = 0
            while index + needle.count < bytes.count {
                guard let found = memchr(bytes.baseAddress! + index, 0x3C, bytes.count - index - needle.count) else { return false }
                index = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - bytes.baseAddress!
                if memcmp(bytes.baseAddress! + index, needle, needle.count) == 0 {
                    let after = bytes[index + needle.count]
                    if after == 0x20 || after == 0x3E || after == 0x2F || after == 0x0A || after == 0x0D || after == 0x09 { return true }
                }
                index += 1
            }
            return false
        }
    }

    /// Whether the bytes look like the store's jsonl (or json) export: objects with a `uuid` and a `type`.
    static func isJSONLines(_ head: [UInt8]) -> Bool {
        guard let first = head.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return false }
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        return text.contains("\"uuid\"") && text.contains("\"type\"") || text.trimmingSpacesAndNewlines() == "[]"
    }

    private static func describe(_ head: [UInt8]) -> String {
        if head.isEmpty { return "it is empty" }
        if head.count >= 2, head[0] == 0x1F, head[1] == 0x8B { return "it is gzip-compressed; decompress it first" }
        if let first = head.first(where: { $0 > 0x20 }), first == UInt8(ascii: "<") {
            let text = String(decoding: head.prefix(4096), as: UTF8.self)
            if text.contains("<ClinicalDocument") { return "it is export_cda.xml; import export.xml instead" }
            return "it is XML without a <HealthData> element"
        }
        return "it does not start like XML, a zip archive, the exporter's JSON Lines or a Health Auto Export payload ({\"data\": {\"metrics\": ...}})"
    }
}
