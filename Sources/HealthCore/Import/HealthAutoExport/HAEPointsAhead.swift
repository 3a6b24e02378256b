/// Reads stretches of a large payload's points on a thread of its own while ``HAEParser`` reads the bytes before them,
/// so that a year of minute-level points is parsed on two cores.
///
/// The payload is cut every ``pieceSize`` bytes. While the parser reads one piece, the thread reads the next: from the
/// first place after the cut that looks like the start of a point (`}`, `,` and `{`, spaces between), point after
/// point, to the first point that starts in the piece after it, or the end of the array. The parser takes the
/// stretch only when it comes to a point of a metric's `data` array that starts exactly there, as deep in the JSON as
/// the thread took it to be: the thread then read the very bytes the parser would have read next, from the same state,
/// and made the points the parser would have made (their lines counted from the stretch's start, and added to the
/// parser's). A cut that fell inside a string, a workout or between metrics is never met that way: its stretch is
/// dropped, and the parser reads on by itself. The thread reports no error: it stops before a point it cannot read
/// whole, which the parser then reads (and reports, with its line and column). It reads only bytes the window has
/// read before handing it the piece (``HAEByteWindow/keptFrom`` keeps them until the parser settles the stretch).
final class HAEPointsAhead {
    /// The points of a stretch, where it ends (the start of the next point, or the array's `]`: `closed`) and how
    /// many lines on.
    struct Stretch {
        var points: HAEPointList
        var end: Int
        var lines: Int
        var closed: Bool
    }

    /// Bytes a piece holds: parsed on one thread, about 10 ms of a year's payload.
    static let standardPieceSize = 4 << 20

    private let thread = OneAtATimeThread()
    private let bytes: UnsafeBufferPointer<UInt8>
    private let window: HAEByteWindow?
    private let pieceSize: Int
    /// How deep a point of a metric's `data` array lies (`{"data": {"metrics": [{"data": [`).
    private let depth: Int
    /// Where the stretch in flight starts; where to look for the next piece to hand over when none is in flight.
    private(set) var trigger = Int.max
    private var inFlight = false
    private var stretch: Stretch?
    /// How many stretches the parser took, and how many it dropped (for tests and measurements).
    private(set) var taken = 0, dropped = 0

    /// Reads ahead in `bytes` (read as the parse goes by `window`, or whole), a piece of `pieceSize` bytes at a time,
    /// points found `depth` deep; nil for a payload of fewer than three pieces (read by the parser alone).
    init?(bytes: UnsafeBufferPointer<UInt8>, window: HAEByteWindow?, pieceSize: Int, depth: Int) {
        guard pieceSize > 0, bytes.count / 3 >= pieceSize else { return nil }
        self.bytes = bytes
        self.window = window
        self.pieceSize = pieceSize
        self.depth = depth
    }

    /// Hands over the first piece (the parser reads the one before it).
    func start() throws {
        try handNext(after: 0)
    }

    /// Called where a point of a metric's `data` array starts, at or after ``trigger``: takes the stretch in flight
    /// when it starts here (the cursor then stands where it ends, and `points` holds its points), drops it otherwise,
    /// and hands over the next piece. Returns true when the stretch taken ends at the array's `]` (no point starts
    /// where the cursor stands).
    func meet(_ cursor: inout JSONCursor, points: inout HAEPointList) throws -> Bool {
        var closed = false
        if inFlight {
            thread.wait()
            inFlight = false
            window?.keptFrom = Int.max
            if let found = stretch, cursor.position == trigger, cursor.nesting == depth, found.end > trigger {
                points.append(contentsOf: found.points, linesAfter: cursor.line)
                cursor.jump(to: found.end, linesFurther: found.lines)
                taken += 1
                closed = found.closed
            } else {
                dropped += 1
            }
            stretch = nil
        }
        try handNext(after: cursor.position)
        return closed
    }

    /// Waits for the thread and ends it; call it when the parse ends, also when it fails (before the window goes).
    func finish() {
        thread.wait()
        thread.stop()
        inFlight = false
        window?.keptFrom = Int.max
    }

    /// Hands the thread the piece after the one `position` is in, from its first point-like start; when the piece has
    /// none, or the payload ends first, the next look is at the end of that piece.
    private func handNext(after position: Int) throws {
        let cut = (position / pieceSize + 1) * pieceSize
        let limit = cut + pieceSize
        guard limit < bytes.count else {
            trigger = Int.max
            return
        }
        // The piece, and a little past it for the point that crosses its end.
        let readable: Int
        if let window {
            try window.readAhead(until: min(bytes.count, limit + pieceSize / 4))
            readable = min(window.filled, bytes.count)
        } else {
            readable = bytes.count
        }
        guard let start = HAEPointsAhead.pointStart(in: bytes, from: cut, before: min(limit, readable)) else {
            trigger = limit
            return
        }
        trigger = start
        window?.keptFrom = start
        inFlight = true
        let (bytes, depth) = (UnsafeBufferPointer(rebasing: self.bytes[..<readable]), self.depth)
        thread.hand { [self] in
            stretch = HAEParser.stretch(of: bytes, from: start, until: limit, depth: depth)
        }
    }

    /// The first place in `bytes[from..<before]` that looks like the start of an array's next object: a `{` after a
    /// `,` after a `}`, with only spaces between.
    static func pointStart(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        var index = from
        while index < end {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "{") else { continue }
            var back = index - 1
            while back >= 0 && isSpace(bytes[back]) { back -= 1 }
            guard back >= 0, bytes[back] == UInt8(ascii: ",") else { continue }
            back -= 1
            while back >= 0 && isSpace(bytes[back]) { back -= 1 }
            if back >= 0, bytes[back] == UInt8(ascii: "}") { return index }
        }
        return nil
    }
}
