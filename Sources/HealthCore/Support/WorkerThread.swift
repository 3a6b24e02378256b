#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A detached thread that runs one closure with a chosen stack size: what `Foundation.Thread` gave, without
/// Foundation.
///
/// Create it, set ``stackSize``, ``start()`` it once. The thread is detached: nothing joins it, and it ends when the
/// closure returns; wait for its work with a ``Condition`` (or a semaphore) the closure signals.
final class WorkerThread: @unchecked Sendable {
    /// The new thread's stack, in bytes; 0 keeps the system's default. Set it before ``start()``.
    var stackSize = 0
    private var body: (@Sendable () -> Void)?

    /// Creates a thread, not started yet, that will run `body`.
    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// Starts the thread. Call it once.
    func start() {
        let result = launch()
        precondition(result == 0, "pthread_create (stack size \(stackSize)) failed: \(result)")
    }

    /// Starts the thread when the system can make one (not at its thread or memory limits), and says whether it did;
    /// when it did not, the closure is not run. Call it once.
    func startIfPossible() -> Bool { launch() == 0 }

    /// Creates the thread; pthread_create's result (0 when it runs the closure).
    private func launch() -> Int32 {
        guard let body else { preconditionFailure("WorkerThread started twice") }
        self.body = nil
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if stackSize > 0 {
            let result = pthread_attr_setstacksize(&attributes, stackSize)
            if result != 0 { return result }
        }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, &attributes, runWorkerThreadBody, context)
        if result != 0 { Unmanaged<Body>.fromOpaque(context).release() }
        return result
    }

    /// The closure, as an object a C pointer can carry to the new thread.
    fileprivate final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

/// The new thread's entry point: runs the closure `context` carries, then releases it.
#if canImport(Darwin)
private func runWorkerThreadBody(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<WorkerThread.Body>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
#else
private func runWorkerThreadBody(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<WorkerThread.Body>.fromOpaque(context!).takeRetainedValue().run()
    return nil
}
#endif
