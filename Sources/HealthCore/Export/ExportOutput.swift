#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// Where an export goes: a file, written under a temporary name and renamed into place when complete (so a
/// failed export never leaves a half-written file), or an open descriptor such as standard output. Writes are
/// buffered in 1 MiB pieces.
public final class ExportOutput {
    private let descriptor: Int32
    private let name: String
    private let finalPath: String?
    private let temporaryPath: String?
    private var buffer: [UInt8] = []
    private var finished = false
    /// Whether the descriptor was opened here (and is closed when done).
    private var ownsDescriptor = false

    /// Creates `path` (replaced when the export finishes); a device or a pipe already at `path` is written in place.
    ///
    /// - Throws: ``ExportError/cannotCreate(_:reason:)``.
    public init(path: String) throws {
        // A device or a pipe (`--out /dev/stdout`, `/dev/full`, a FIFO) is written in place: a temporary file
        // renamed over it would replace the device, and its write errors would go unseen.
        var status = stat()
        if stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG && (status.st_mode & S_IFMT) != S_IFDIR {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ExportError.cannotCreate(path, reason: String(cString: strerror(errno))) }
            descriptor = fd
            name = path
            finalPath = nil
            temporaryPath = nil
            ownsDescriptor = true
            buffer.reserveCapacity(1 << 20)
            return
        }
        let temporary = path + ".hkctl-partial-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ExportError.cannotCreate(path, reason: String(cString: strerror(errno))) }
        descriptor = fd
        name = path
        finalPath = path
        temporaryPath = temporary
        ownsDescriptor = true
        buffer.reserveCapacity(1 << 20)
    }

    /// Writes to an open descriptor (1 for standard output), which is not closed.
    public init(descriptor: Int32, name: String = "standard output") {
        self.descriptor = descriptor
        self.name = name
        finalPath = nil
        temporaryPath = nil
        buffer.reserveCapacity(1 << 20)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        if let temporaryPath, !finished { unlink(temporaryPath) }
    }

    /// Appends text.
    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is buffered, syncs a file and moves it to its final name.
    ///
    /// - Throws: ``ExportError``.
    public func finish() throws {
        try flush()
        if let temporaryPath, let finalPath {
            guard fsync(descriptor) == 0 else { throw ExportError.writeFailed(name, reason: String(cString: strerror(errno))) }
            guard rename(temporaryPath, finalPath) == 0 else {
                throw ExportError.cannotCreate(finalPath, reason: String(cString: strerror(errno)))
            }
        }
        finished = true
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
