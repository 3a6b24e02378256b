#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``ByteChannel`` on a connected socket: waits with `poll`, never blocks past a timeout, and never raises
/// `SIGPIPE` when the client has gone.
package struct SocketChannel: ByteChannel {
    /// The socket; the channel closes it in ``close()``.
    package let descriptor: Int32

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    package mutating func receive(into buffer: inout [UInt8], limit: Int, timeout: Double) -> ReceiveResult {
        guard limit > 0 else { return .received(0) }
        guard Self.wait(descriptor, for: Int16(POLLIN), timeout: timeout) else { return .timedOut }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: limit))
        let count = buffer.withUnsafeMutableBytes { bytes in
            recv(descriptor, bytes.baseAddress! + start, limit, 0)
        }
        buffer.removeLast(limit - max(count, 0))
        return count > 0 ? .received(count) : .closed
    }

    package mutating func send(_ bytes: [UInt8], timeout: Double) -> Bool {
        var sent = 0
        while sent < bytes.count {
            guard Self.wait(descriptor, for: Int16(POLLOUT), timeout: timeout) else { return false }
            let count = bytes.withUnsafeBytes { buffer in
                socketSend(descriptor, buffer.baseAddress! + sent, bytes.count - sent)
            }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Closes the connection gracefully: says the answer is finished, then reads and drops what the client still
    /// sends (a body that was refused) for up to `linger` seconds, so that closing does not reset the connection
    /// before the client has read the answer.
    package func close(linger: Double = 1) {
        shutdown(descriptor, Int32(SHUT_WR))
        let deadline = RequestReader.monotonicSeconds() + linger
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        var drained = 0
        while drained < 8 << 20 {
            let remaining = deadline - RequestReader.monotonicSeconds()
            guard remaining > 0, Self.wait(descriptor, for: Int16(POLLIN), timeout: remaining) else { break }
            let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            guard count > 0 else { break }
            drained += count
        }
        closeDescriptor(descriptor)
    }

    /// Waits until `descriptor` is ready for `events` (or has hung up), at most `timeout` seconds.
    static func wait(_ descriptor: Int32, for events: Int16, timeout: Double) -> Bool {
        let deadline = RequestReader.monotonicSeconds() + timeout
        while true {
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let remaining = deadline - RequestReader.monotonicSeconds()
            guard remaining > 0 else { return false }
            let result = poll(&entry, 1, Int32(min(remaining * 1000, 86_400_000).rounded(.up)))
            if result > 0 { return true }
            if result == 0 { return false }
            if errno != EINTR { return true }
        }
    }
}

/// `send` without `SIGPIPE` (the method of the same name hides the system's inside the type).
private func socketSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    return send(descriptor, bytes, count, 0)  // Darwin: SO_NOSIGPIPE is set on the socket instead
    #else
    return send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #endif
}

/// `close`, out of reach of the method of the same name.
func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
