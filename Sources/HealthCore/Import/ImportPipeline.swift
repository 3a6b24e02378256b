/// A bounded, ordered hand-over of work from the thread that reads an export to the thread that stores it, so the
/// two cores work at once while memory stays bounded: the reader waits when `capacity` chunks are waiting.
///
/// Items arrive in the order they were sent, so the result is the same as doing both steps on one thread.
/// Either side can stop the other: the consumer by ``fail(_:)`` (the reader's next ``send(_:)`` then returns
/// false), the producer by ``finish()`` after its last chunk.
final class ImportPipeline<Item>: @unchecked Sendable {
    private let condition = Condition()
    private var chunks: [(items: [Item], mark: Int)] = []
    private var head = 0
    private var finished = false
    private(set) var failure: Error?
    private let capacity: Int

    /// Creates a pipeline holding at most `capacity` chunks in flight.
    init(capacity: Int) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
    }

    /// Hands over a chunk, waiting while the pipeline is full.
    ///
    /// - Parameter mark: A number that travels with the chunk (the importer's bytes read, for progress).
    /// - Returns: false when the consumer failed: the chunk was dropped and the producer should stop.
    func send(_ chunk: [Item], mark: Int = 0) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count - head >= capacity && failure == nil { condition.wait() }
        guard failure == nil else { return false }
        chunks.append((chunk, mark))
        condition.broadcast()
        return true
    }

    /// Marks the end of the input: ``receive()`` returns nil once the chunks sent are consumed.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk and its mark, waiting for one; nil after ``finish()`` once all were handed out.
    func receive() -> (items: [Item], mark: Int)? {
        condition.lock()
        defer { condition.unlock() }
        while head == chunks.count && !finished { condition.wait() }
        guard head < chunks.count else { return nil }
        let chunk = chunks[head]
        chunks[head] = ([], 0)
        head += 1
        if head > 64 && head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return chunk
    }

    /// Records the consumer's error and releases a waiting producer; the first error is kept.
    func fail(_ error: Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }
}
