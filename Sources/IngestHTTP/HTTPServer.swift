#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One request's entry in the server's log: what was asked, of whom, and the answer; never a header value (a token
/// must not reach a log).
package struct RequestLogEntry: Sendable, Equatable {
    /// The method, or `-` when the head could not be read.
    package var method: String
    /// The path when it is one the handler serves, else `-` (a path may carry anything a client put in it).
    package var path: String
    /// The status answered, or nil when the client went away before an answer.
    package var status: HTTPStatus?
    /// The answer's ``HTTPResponse/logSource``.
    package var source: String
    /// The answer's ``HTTPResponse/logNote``.
    package var note: String
    /// The answer's ``HTTPResponse/logEvenWhenQuiet``.
    package var evenWhenQuiet = false
}

/// A small HTTP/1.1 server: one request per connection, each connection on a thread of its own (up to
/// ``ServerLimits/maxConnections``), so a slow client holds only its own thread.
///
/// ``run()`` serves until ``stop()`` (or a byte on ``Listener/wakeDescriptor``, from a signal handler), then lets
/// the connections in flight, and those already waiting to be accepted, finish (their own timeouts bound them) and
/// returns.
package final class HTTPServer: @unchecked Sendable {
    private let listener: Listener
    private let handler: any RequestHandling
    private let limits: ServerLimits
    private let paths: Set<String>
    private let log: @Sendable (RequestLogEntry) -> Void
    private let active = Monitor()

    /// - Parameters:
    ///   - listener: The listening socket.
    ///   - handler: Screens and answers each request.
    ///   - limits: Sizes and timeouts.
    ///   - paths: The paths the handler serves, the only ones a log entry names.
    ///   - log: Called once per connection that sent anything, from its thread.
    package init(listener: Listener, handler: any RequestHandling, limits: ServerLimits, paths: Set<String>,
                 log: @escaping @Sendable (RequestLogEntry) -> Void) {
        self.listener = listener
        self.handler = handler
        self.limits = limits
        self.paths = paths
        self.log = log
    }

    /// Serves connections until stopped, then serves those that had connected already, waits for every one in
    /// flight, and returns.
    package func run() {
        while let client = listener.accept() { dispatch(client) }
        while let client = listener.acceptWaiting() { dispatch(client) }
        active.lock()
        while active.count > 0 { active.wait() }
        active.unlock()
    }

    /// Serves `client` on a thread of its own, or answers 503 when ``ServerLimits/maxConnections`` are in flight.
    private func dispatch(_ client: Int32) {
        active.lock()
        let full = active.count >= limits.maxConnections
        if !full { active.count += 1 }
        active.unlock()
        if full {
            refuse(client)
            return
        }
        ConnectionThread.start { [self] in
            serve(client)
            active.lock()
            active.count -= 1
            active.broadcast()
            active.unlock()
        }
    }

    /// Stops accepting; ``run()`` returns once the connections in flight are done.
    package func stop() { listener.wake() }

    private func serve(_ client: Int32) {
        var channel = SocketChannel(descriptor: client)
        let (response, head) = handler.exchange(on: &channel, reader: RequestReader(limits: limits))
        channel.close()
        guard response != nil || head != nil else { return }
        let path = head.map { String($0.path) }.flatMap { paths.contains($0) ? $0 : nil } ?? "-"
        log(RequestLogEntry(method: head?.method ?? "-", path: path, status: response?.status,
                            source: response?.logSource ?? "-", note: response?.logNote ?? "the client went away",
                            evenWhenQuiet: response?.logEvenWhenQuiet ?? false))
    }

    /// Answers 503 to a connection over the limit, without reading it or waiting on it.
    private func refuse(_ client: Int32) {
        var channel = SocketChannel(descriptor: client)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        let response = HTTPResponse.error(.serviceUnavailable, "The server is serving \(limits.maxConnections) connections; try again shortly.",
                                          fields: [HeaderField(name: "Retry-After", value: "5")])
        _ = channel.send(response.bytes, timeout: 0.01)
        channel.close(linger: 0)
        log(RequestLogEntry(method: "-", path: "-", status: .serviceUnavailable, source: "-", note: "too many connections"))
    }
}

/// The count of connections in flight, under a lock with a condition to wait on (pthread objects at fixed
/// addresses, as pthreads require).
private final class Monitor: @unchecked Sendable {
    var count = 0
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// A detached thread running one closure.
private enum ConnectionThread {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    static func start(_ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, &attributes, { context in
            #if canImport(Darwin)
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            #else
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            #endif
            return nil
        }, context)
        if result != 0 {
            // No thread to be had: serve on this one rather than drop the connection.
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
        }
    }
}
