#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading Health Auto Export files: a folder of them (as the app writes one file per run to iCloud Drive or
/// another synced folder), and a whole stream.
enum HealthAutoExportFolder {
    /// The `*.json` files directly in the folder at `path`, in name order (byte order); nil when `path` is not a
    /// folder.
    ///
    /// - Throws: ``ImportError/cannotOpen(_:reason:)`` when the folder cannot be listed,
    ///   ``ImportError/noHealthAutoExportFiles(_:)`` when it holds no `.json` file.
    static func files(atPath path: String) throws -> [(path: String, name: String)]? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        guard let folder = opendir(path) else { throw ImportError.cannotOpen(path, reason: ImportError.systemReason()) }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard name.hasSuffix(".json"), !name.hasPrefix(".") else { continue }
            var fileInfo = stat()
            let full = path.hasSuffix("/") ? path + name : path + "/" + name
            guard stat(full, &fileInfo) == 0, (fileInfo.st_mode & S_IFMT) == S_IFREG else { continue }
            names.append(name)
        }
        guard !names.isEmpty else { throw ImportError.noHealthAutoExportFiles(path) }
        names.sort { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return names.map { ((path.hasSuffix("/") ? path : path + "/") + $0, $0) }
    }

    /// The payload in the file at `path`.
    ///
    /// - Throws: ``ImportError`` when it cannot be read or is not a Health Auto Export payload.
    static func payload(atPath path: String, name: String) throws -> HealthAutoExportPayload {
        let reader = try FileByteReader(path: path)
        let head = try reader.readBytes(ImportInput.sniffLength)
        guard HAEParser.looksLikePayload(head) else {
            throw ImportError.invalidHealthAutoExport(name, line: 1, column: 1,
                                                      reason: "it does not start like one ({\"data\": {\"metrics\": [...]}})")
        }
        return try payload(PrefixedByteReader(prefix: head, rest: reader), file: reader, name: name)
    }

    /// The payload `reader` streams from the start of `file`: read a window at a time when the file is a regular
    /// one (``HealthAutoExportPayload/init(streaming:size:name:sizes:whole:)``, which reads the file again from its
    /// start should it need every byte), else read whole.
    static func payload(_ reader: ByteReader, file: FileByteReader, name: String) throws -> HealthAutoExportPayload {
        guard let size = file.size else { return try HealthAutoExportPayload(bytes: readAll(reader), name: name) }
        return try HealthAutoExportPayload(streaming: reader, size: size, name: name) { try readAll(from: file) }
    }

    /// Every byte of a regular file, read again from its start (the stream's position is left alone).
    static func readAll(from file: FileByteReader) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity((file.size ?? 0) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try file.read(at: bytes.count, into: $0) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// Every byte of `reader`; `expected` (the file's size, when known) is reserved at once.
    static func readAll(_ reader: ByteReader, expected: Int? = nil) throws -> [UInt8] {
        var bytes: [UInt8] = []
        if let expected, expected > 0 { bytes.reserveCapacity(expected + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }
}
