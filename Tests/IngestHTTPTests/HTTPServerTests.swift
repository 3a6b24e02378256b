#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import IngestHTTP

/// The server on a loopback socket: connections over the limit get 503 at once, `stop()` lets the one in flight finish.
struct HTTPServerTests {
    /// A connected client socket to 127.0.0.1:`port`.
    private func connectTo(_ port: UInt16) throws -> Int32 {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(result == 0)
        // A bound on every read: an answer that never comes fails the test instead of hanging the suite.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return client
    }

    private func send(_ client: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything the server sends until it closes.
    private func answer(_ client: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                Issue.record("no answer, or no end of it, within 20 s; received so far: \(String(decoding: bytes, as: UTF8.self))")
            }
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        close(client)
        return String(decoding: bytes, as: UTF8.self)
    }

    private final class Done: @unchecked Sendable { var finished = false }

    @Test(.timeLimit(.minutes(20))) func connectionsOverTheLimitGet503AndStopLetsTheOneInFlightFinish() throws {
        var limits = ServerLimits()
        limits.maxConnections = 1
        limits.headerTimeout = 5
        let listener = try Listener(address: ListenAddress(host: "127.0.0.1", port: 0, isIPv6: false))
        let entries = LogSink()
        let server = HTTPServer(listener: listener, handler: EchoHandler(), limits: limits, paths: ["/echo"]) { entries.add($0) }
        let done = Done()
        let thread = ServerThread { server.run(); done.finished = true }
        thread.start()
        // One connection in flight, half its body sent.
        let first = try connectTo(listener.address.port)
        send(first, "POST /echo HTTP/1.1\r\nContent-Length: 4\r\n\r\nab")
        usleep(100_000)
        let second = try connectTo(listener.address.port)
        #expect(answer(second).hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        // Stopped while the first waits for its body: it is still answered, then run() returns.
        server.stop()
        usleep(100_000)
        #expect(!done.finished)
        send(first, "cd")
        #expect(answer(first).hasPrefix("HTTP/1.1 200 OK\r\n"))
        for _ in 0..<100 where !done.finished { usleep(20_000) }
        #expect(done.finished)
        #expect(entries.statuses.sorted { $0.rawValue < $1.rawValue } == [.ok, .serviceUnavailable])
    }
}

private final class LogSink: @unchecked Sendable {
    // A pthread mutex must stay at one address: allocated, not a stored property passed with `&` (Swift may pass a
    // temporary copy, and a copy of a locked mutex never unlocks).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var entries: [RequestLogEntry] = []
    init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    func add(_ entry: RequestLogEntry) {
        pthread_mutex_lock(mutex)
        entries.append(entry)
        pthread_mutex_unlock(mutex)
    }
    var statuses: [HTTPStatus] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return entries.compactMap(\.status)
    }
}

/// A thread for the server's blocking `run()`.
private final class ServerThread: @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    func start() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            Unmanaged<ServerThread>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        pthread_detach(thread)
    }
}
