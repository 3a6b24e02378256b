/// The limits that keep a hostile or broken client from holding the server: sizes and how long it waits.
///
/// The defaults suit a phone pushing a day or a week of data; tests shorten the timeouts.
package struct ServerLimits: Sendable, Equatable {
    /// The largest body accepted; a longer `Content-Length` is answered 413 before any of the body is read.
    package var maxBodyBytes = 64 << 20
    /// The longest request head (request line and header fields).
    package var maxHeadBytes = 16 << 10
    /// The longest request target.
    package var maxTargetBytes = 2048
    /// The most header fields.
    package var maxFields = 64
    /// Seconds from the connection's start until its request head is whole (then 408).
    package var headerTimeout = 10.0
    /// Seconds the server waits for the next bytes of a body (then 408): a client that stalls is dropped, one that
    /// is slow but moving is not.
    package var bodyTimeout = 30.0
    /// Seconds the server waits for a client to take the next bytes of an answer.
    package var sendTimeout = 30.0
    /// Connections served at once; one more is answered 503 at once.
    package var maxConnections = 64

    package init() {}
}
