/// A thread of its own that runs the work handed to it one piece at a time, in the order handed over, so that the
/// caller can prepare the next piece while one runs.
///
/// ``hand(_:)`` waits until the piece before is done, so at most one runs at a time; ``wait()`` waits until the piece
/// handed over is done. What a piece leaves for the caller (its result, its error) is safe to read after ``wait()``
/// (or the next ``hand(_:)``) returns: the condition's lock orders the two threads. The thread starts with the first
/// piece; ``stop()`` ends it once it is idle (call it when done, or the thread and this object stay alive).
final class OneAtATimeThread: @unchecked Sendable {
    private let condition = Condition()
    private var work: (() -> Void)?
    private var busy = false
    private var stopped = false
    private var started = false
    private let stackSize: Int

    /// Creates the thread, not started yet; its stack holds `stackSize` bytes.
    init(stackSize: Int = 8 << 20) {
        self.stackSize = stackSize
    }

    /// Waits until the piece before is done, then has the thread run `work`.
    func hand(_ work: @escaping () -> Void) {
        if !started { start() }
        condition.lock()
        defer { condition.unlock() }
        while busy { condition.wait() }
        self.work = work
        busy = true
        condition.broadcast()
    }

    /// Waits until the piece handed over last is done (at once when there is none).
    func wait() {
        condition.lock()
        defer { condition.unlock() }
        while busy { condition.wait() }
    }

    /// Ends the thread once its piece is done.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func start() {
        started = true
        let thread = WorkerThread { [self] in run() }
        thread.stackSize = stackSize
        thread.start()
    }

    private func run() {
        while true {
            condition.lock()
            while work == nil && !stopped { condition.wait() }
            guard let piece = work else {
                condition.unlock()
                return
            }
            condition.unlock()
            piece()
            condition.lock()
            work = nil
            busy = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
