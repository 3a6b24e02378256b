#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// Where `export` and `chart --svg` write: a file the user named, opened by ``OutputFile``'s rule (written under a
/// temporary name and renamed into place when complete, so a failed export never leaves a half-written file, and
/// never replacing a link, device or FIFO), or an open descriptor such as standard output. Writes are buffered in
/// 1 MiB pieces.
final class ExportOutput: ExportDestination {
    private let descriptor: Int32
    private let name: String
    /// The named file, when writing to one (it closes its descriptor and removes its temporary file if unfinished).
    private let file: OutputFile?
    private var buffer: [UInt8] = []

    /// Opens `path` for output by ``OutputFile``'s rule (README, "Output files"), refusing a path inside `store`.
    ///
    /// - Throws: ``ExportError``; nothing is created then.
    init(path: String, outside store: JSONFileStore?) throws {
        let file = try OutputFile(path: path, outside: store)
        self.file = file
        descriptor = file.descriptor
        name = path
        buffer.reserveCapacity(1 << 20)
    }

    /// Writes to an open descriptor (1 for standard output), which is not closed.
    init(descriptor: Int32, name: String = "standard output") {
        self.descriptor = descriptor
        self.name = name
        file = nil
        buffer.reserveCapacity(1 << 20)
    }

    /// Appends text.
    ///
    /// - Throws: ``ExportError/writeFailed(_:reason:)``, ``ExportError/outputClosed``.
    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Appends UTF-8 bytes as they are.
    ///
    /// - Throws: As ``write(_:)``.
    func write(utf8 bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is buffered and makes a named file final (see ``OutputFile/commit()``).
    ///
    /// - Throws: ``ExportError``.
    func finish() throws {
        try flush()
        try file?.commit()
    }

    private func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw ExportError.outputClosed }
                throw ExportError.writeFailed(name, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
