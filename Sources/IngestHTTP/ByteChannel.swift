/// What one receive from a client gave.
package enum ReceiveResult: Sendable, Equatable {
    /// This many bytes were appended.
    case received(Int)
    /// The client closed its side (or the connection failed).
    case closed
    /// Nothing arrived within the timeout.
    case timedOut
}

/// Where a request's bytes come from and its answer goes: a socket in the server, a script of chunks in tests and in
/// the fuzzer.
package protocol ByteChannel {
    /// Appends at most `limit` bytes that arrived to `buffer`, waiting at most `timeout` seconds for the first.
    mutating func receive(into buffer: inout [UInt8], limit: Int, timeout: Double) -> ReceiveResult
    /// Sends all of `bytes`, waiting at most `timeout` seconds each time the client does not take more; false when
    /// they could not all be sent.
    mutating func send(_ bytes: [UInt8], timeout: Double) -> Bool
}
