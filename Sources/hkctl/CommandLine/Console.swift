/// Where a command writes: data to `out`, everything else to `err`. Output is buffered and written in large
/// pieces; ``flush()`` must be called before the process exits.
final class Console {
    private let writeOut: ([UInt8]) -> Bool
    private let writeErr: (String) -> Void
    private var buffer: [UInt8] = []
    /// Whether standard input is a terminal (confirmations may be asked).
    let inputIsTerminal: Bool

    /// Whether standard output was closed by the reader (a write failed).
    private(set) var outputClosed = false

    /// - Parameter writeOut: Writes bytes to standard output; returns false when the reader has gone.
    init(writeOut: @escaping ([UInt8]) -> Bool, writeErr: @escaping (String) -> Void, inputIsTerminal: Bool = false) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.inputIsTerminal = inputIsTerminal
    }

    /// Writes a line of data to standard output.
    func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes a line to standard error at once.
    func error(_ text: String) {
        flush()
        writeErr(text + "\n")
    }

    func flush() {
        if !buffer.isEmpty {
            if !writeOut(buffer) { outputClosed = true }
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
