import Foundation
import Testing
@testable import HealthCore

/// What the handler-based query tests share: a thread-safe record of handler calls, and waiting for them.
enum QueryTestSupport {
    /// The calls a handler received, in order; the handler runs on the query's thread, the test reads on its own.
    final class Recorder<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [Value] = []

        func record(_ value: Value) {
            lock.lock()
            items.append(value)
            lock.unlock()
        }

        var all: [Value] {
            lock.lock()
            defer { lock.unlock() }
            return items
        }

        var count: Int { all.count }

        /// The call number `index` (from 0), once it has come (within the running-time limit of
        /// ``LiveTestSupport/eventually(_:_:)``).
        func call(_ index: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Value {
            let came = await LiveTestSupport.eventually { self.count > index }
            try #require(came, "handler call \(index + 1) never came", sourceLocation: sourceLocation)
            return all[index]
        }
    }

    /// A moment for a handler that should not be called to show that it is not: long enough for a monitor to wake
    /// and a query to read the store on a quiet machine.
    static func pause() async throws {
        try await Task.sleep(for: .milliseconds(400))
    }

    static func steps(_ value: Double, at start: String, source: String = AuthorizationState.ownerSource) -> Sample {
        LiveTestSupport.steps(value, at: start, source: source)
    }

    static func weight(_ value: Double, at start: String, source: String = AuthorizationState.ownerSource) -> Sample {
        TestSupport.quantitySample(.weight, value, "kg", start: start, source: source)
    }

    /// `[start, end)`, with the start required inside.
    static func range(_ start: String, _ end: String) -> SamplePredicate {
        Query.predicateForSamples(withStart: TestSupport.date(start), end: TestSupport.date(end), options: .strictStartDate)
    }
}
