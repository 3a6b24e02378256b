#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one request from a channel within the server's limits: the head within ``ServerLimits/headerTimeout`` of
/// the start, then (when the handler wants it) a body of exactly its `Content-Length`, each part of it arriving
/// within ``ServerLimits/bodyTimeout`` of the one before.
package struct RequestReader {
    /// The limits.
    package var limits: ServerLimits
    /// Seconds on a monotonic clock (injected so tests need not wait).
    package var now: () -> Double

    /// Creates a reader with these limits and a monotonic clock.
    package init(limits: ServerLimits, now: @escaping () -> Double = RequestReader.monotonicSeconds) {
        self.limits = limits
        self.now = now
    }

    /// Reads and parses the request head. `buffer` keeps whatever arrived after it (the start of the body).
    ///
    /// - Throws: ``RequestHead/parse(_:limits:)``'s rejections, 408 when the head is not whole within
    ///   ``ServerLimits/headerTimeout``, 431 when it grows past ``ServerLimits/maxHeadBytes`` without ending,
    ///   ``RequestRejection/clientGone`` when the client closes first.
    package func readHead<Channel: ByteChannel>(from channel: inout Channel, buffer: inout [UInt8]) throws(RequestRejection) -> RequestHead {
        let deadline = now() + limits.headerTimeout
        var searched = 0
        while true {
            if let end = RequestHead.endOfHead(in: buffer, from: searched) {
                let head = try RequestHead.parse(buffer[..<end], limits: limits)
                buffer.removeFirst(end)
                return head
            }
            // A line feed without its carriage return never ends a head: refuse it now rather than time out.
            if buffer.indices[searched...].contains(where: { index in
                buffer[index] == 0x0A && (index == 0 || buffer[index - 1] != 0x0D)
            }) {
                throw RequestRejection(.badRequest, "The request has a line feed without a carriage return; lines end with CRLF.")
            }
            searched = buffer.count
            guard buffer.count < limits.maxHeadBytes + 4 else {
                throw RequestRejection(.headerFieldsTooLarge, "The request head is longer than \(limits.maxHeadBytes) bytes.")
            }
            let remaining = deadline - now()
            guard remaining > 0 else { throw timedOutInHead(buffer) }
            switch channel.receive(into: &buffer, limit: limits.maxHeadBytes + 4 - buffer.count, timeout: remaining) {
            case .received: continue
            case .closed: throw .clientGone
            case .timedOut: throw timedOutInHead(buffer)
            }
        }
    }

    private func timedOutInHead(_ buffer: [UInt8]) -> RequestRejection {
        var rejection = RequestRejection(.requestTimeout, "The request head did not arrive within \(Self.seconds(limits.headerTimeout)); nothing was stored.")
        // A connection that never sent a byte (a port scan, a client that changed its mind) gets no answer.
        if buffer.isEmpty { rejection.answers = false }
        return rejection
    }

    /// Reads the body of `length` bytes, starting with what `buffer` already holds.
    ///
    /// - Throws: 408 when no bytes arrive for ``ServerLimits/bodyTimeout``, ``RequestRejection/clientGone`` when the
    ///   client closes before the body is whole.
    package func readBody<Channel: ByteChannel>(length: Int, from channel: inout Channel, buffer: [UInt8]) throws(RequestRejection) -> [UInt8] {
        var body = Array(buffer.prefix(length))
        // Grown as bytes arrive, never reserved from the length a client claims.
        body.reserveCapacity(min(length, 1 << 20))
        while body.count < length {
            switch channel.receive(into: &body, limit: min(length - body.count, 1 << 16), timeout: limits.bodyTimeout) {
            case .received: continue
            case .closed: throw .clientGone
            case .timedOut:
                throw RequestRejection(.requestTimeout, "The body stalled: no bytes arrived for \(Self.seconds(limits.bodyTimeout)) after \(body.count) of \(length); nothing was stored.")
            }
        }
        return body
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Seconds on the system's monotonic clock.
    package static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
