#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: data to `out`, everything else to `err`. Output is buffered and written in large
/// pieces; ``flush()`` must be called before the process exits, and ``outputFailure`` read after it: output that
/// could not be written (a full disk, `/dev/full`) fails the command with exit 74, while a reader that went away
/// (`hkctl list | head -1`, EPIPE) is not an error.
final class Console {
    /// Why standard output could not be written.
    enum OutputFailure: Equatable {
        /// The reader closed the pipe (EPIPE): it has what it wanted.
        case readerGone
        /// Any other write error; payload: the system's errno.
        case failed(Int32)
    }

    private let writeOut: ([UInt8]) -> Int32
    private let writeErr: (String) -> Void
    private var buffer: [UInt8] = []
    /// Whether standard input is a terminal (confirmations may be asked).
    let inputIsTerminal: Bool

    /// `--quiet`: nothing is written to standard output, and ``note(_:)`` lines are dropped; errors, warnings and
    /// questions (``error(_:)``) still go to standard error.
    var quiet = false

    /// Set when a write to standard output failed; nothing more is written after it.
    private(set) var outputFailure: OutputFailure?

    /// Whether standard output can no longer be written (the reader went away, or a write failed).
    var outputClosed: Bool { outputFailure != nil }

    /// - Parameter writeOut: Writes all the bytes to standard output; returns 0, or the errno of the failed write.
    init(writeOut: @escaping ([UInt8]) -> Int32, writeErr: @escaping (String) -> Void, inputIsTerminal: Bool = false) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.inputIsTerminal = inputIsTerminal
    }

    /// Writes a line of data to standard output (nothing under ``quiet``).
    func line(_ text: String) {
        part(text)
        if !quiet { buffer.append(0x0A) }
    }

    /// Writes part of a line of data to standard output, leaving it open (nothing under ``quiet``): a long document
    /// goes out piece by piece instead of being built whole first.
    func part(_ text: String) {
        if quiet { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes an informational line to standard error ("Deleted 3 samples."), unless ``quiet``.
    func note(_ text: String) {
        if !quiet { error(text) }
    }

    /// Writes a line to standard error at once: an error, a warning or a question, which ``quiet`` keeps.
    func error(_ text: String) {
        flush()
        writeErr(text + "\n")
    }

    func flush() {
        if !buffer.isEmpty {
            if outputFailure == nil {
                let error = writeOut(buffer)
                if error == EPIPE { outputFailure = .readerGone } else if error != 0 { outputFailure = .failed(error) }
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
