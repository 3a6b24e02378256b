/// Reads an Apple Health `export.xml` as a stream of records, characteristics and problems.
///
/// Structure handled: `HealthData` holding `ExportDate`, `Me`, `Record` (with `MetadataEntry` children, and any
/// other children kept as written), `Correlation` (its child records are read as records too, as well as kept
/// inside it), `Workout` (its `WorkoutEvent`, `WorkoutStatistics`, `WorkoutRoute` and `WorkoutActivity` children kept
/// as written), `ActivitySummary`, and `ClinicalRecord`, `Audiogram`, `VisionPrescription` and a top-level
/// `WorkoutActivity`, kept generically, and so are top-level elements of kinds it does not know (dated 2001-01-01
/// when they name no date). A `Record` nested inside another
/// record (never written by the Health app, but well-formed) is read as a record of its own.
///
/// Nothing here is fatal except an input that is not an export at all: malformed markup, records not closed, and
/// a file cut short are reported as events and reading goes on.
final class HealthExportReader {
    /// What the reader found.
    enum Event {
        /// A record or element, mapped.
        case record(MappedRecord)
        /// The attributes of `Me` (characteristic identifier → export value).
        case characteristics([(key: String, value: String)], line: Int)
        /// Malformed or truncated markup that was skipped.
        case problem(line: Int, message: String)
        /// Records encoded straight from their bytes (see ``direct``), in order.
        case direct(DirectRecordGroup)
    }

    /// Facts about the export as a whole, known once it has been read.
    struct Summary {
        var exportDate: Date?
        var locale: String?
        var skippedElements: [String: Int] = [:]
        var skippedAttributes: [String: Int] = [:]
        /// Route files workouts named that could not be read: the first few, and how many.
        var missingRoutes: (paths: [String], count: Int) = ([], 0)
        var complete = false
    }

    private enum Kind { case root, record, element, capture, skip }

    private struct Frame {
        var name: String
        var kind: Kind
        var pending: PendingRecord?
        var node: ExportNode?
    }

    /// The start of elements of unknown kinds that name no date: HealthKit's reference date, 2001-01-01T00:00:00Z.
    static let undatedElementDate = Date(timeIntervalSince1970: 978_307_200)

    static let genericElements: Set<String> = [
        "Workout", "Correlation", "ActivitySummary", "ClinicalRecord", "Audiogram", "VisionPrescription",
        "WorkoutActivity", "WorkoutRoute",
    ]

    private let scanner: XMLByteScanner
    private let displayName: String
    private var mapper: ExportRecordMapper
    private var stack: [Frame] = []
    private var summary = Summary()
    private var sawRoot = false
    private var rootClosed = false
    private var firstElement: String?

    /// Creates a reader of the XML in `reader`, named `displayName` in messages.
    init(reader: ByteReader, displayName: String, catalogue: SampleTypeCatalogue, routeFiles: WorkoutRouteFiles? = nil) {
        scanner = XMLByteScanner(reader: reader)
        self.displayName = displayName
        mapper = ExportRecordMapper(catalogue: catalogue)
        mapper.routeFiles = routeFiles
    }

    /// Whether records that stand alone are handed over with ``RecordIdentity/placeholder`` as their UUID, for the
    /// consumer to derive it (see ``PendingRecord/deferIdentity``).
    var deferIdentity = false

    /// When set, plain records are encoded straight from their bytes and handed over in ``Event/direct(_:)``
    /// groups; the records it refuses are read the general way.
    var direct: DirectRecordEncoder?
    /// The direct records not handed over yet.
    private var group: DirectRecordGroup?
    /// The tags of the open direct record, to read it the general way after all.
    private var directTags = XMLTagCopy()
    /// Whether a direct record is open (it has no frame on the stack: only empty `MetadataEntry` children and its
    /// end tag keep it direct).
    private var directOpen = false

    /// The line the reader has reached.
    var currentLine: Int { scanner.currentLine }

    /// Reads to the end, calling `handle` for each event.
    ///
    /// - Returns: What the export said about itself, and what was skipped.
    /// - Throws: ``ImportError/notAnExport(_:found:)`` when the root element is not `HealthData`; errors from the
    ///   input and from `handle`.
    func read(_ handle: (consuming Event) throws -> Void) throws -> Summary {
        var scanProblems: [Event] = []
        // Direct records waiting in a group go first: events stay in input order.
        func forward(_ event: consuming Event) throws {
            if let group = self.group {
                self.group = nil
                group.fields = direct!.fields()
                try handle(.direct(group))
            }
            try handle(event)
        }
        try scanner.scan(onTag: { tag in
            if !scanProblems.isEmpty {
                for event in scanProblems { try forward(event) }
                scanProblems.removeAll()
            }
            try self.handle(tag, emit: forward, handOver: handle)
        }, onProblem: { problem in
            scanProblems.append(.problem(line: problem.line, message: problem.message))
        })
        for event in scanProblems { try forward(event) }
        if directOpen { readDirectRecordInFull() }
        if let group {
            self.group = nil
            group.fields = direct!.fields()
            try handle(.direct(group))
        }
        guard sawRoot else {
            throw ImportError.notAnExport(displayName, found: firstElement.map { "its first element is <\($0)>, not <HealthData>" }
                ?? "it holds no XML elements")
        }
        let endLine = scanner.currentLine
        while let frame = stack.popLast() {
            switch frame.kind {
            case .record, .element:
                if let pending = frame.pending {
                    try handle(.record(.rejected(type: pending.typeIdentifier, line: pending.line,
                                                 reason: "the file ends before this <\(frame.name)> is closed (it is truncated)")))
                }
            case .root:
                try handle(.problem(line: endLine, message: "the file ends before </HealthData> (it is truncated)"))
            case .capture, .skip:
                break
            }
        }
        summary.complete = rootClosed
        summary.skippedAttributes.merge(mapper.skippedAttributes) { $0 + $1 }
        summary.missingRoutes = (mapper.missingRoutes, mapper.missingRouteCount)
        return summary
    }

    // MARK: - Tags

    /// How deep elements may nest (an export nests them five deep at most): deeper input is refused, so that a
    /// hostile file cannot grow the stack of open elements without bound.
    static let maximumDepth = 64
    /// How many elements one top-level element may hold, at any depth (a heart-rate-variability record holds about
    /// a hundred): more is refused, so that the children kept with a record stay bounded.
    static let maximumChildren = 100_000
    /// Elements read inside the current top-level element, and the line it starts on.
    private var children = 0
    private var elementLine = 0

    private func handle(_ tag: XMLTag, emit: (consuming Event) throws -> Void,
                        handOver: (consuming Event) throws -> Void) throws {
        if tag.kind != .close {
            if stack.count <= 1 && !directOpen {
                children = 0
                elementLine = tag.line
            } else {
                children += 1
                if children > HealthExportReader.maximumChildren {
                    throw ImportError.tooManyChildren(displayName, line: elementLine, limit: HealthExportReader.maximumChildren)
                }
            }
            if tag.kind == .open && stack.count >= HealthExportReader.maximumDepth {
                throw ImportError.nestingTooDeep(displayName, line: tag.line, limit: HealthExportReader.maximumDepth)
            }
        }
        if directOpen {
            if tag.kind == .close {
                if XMLText.equals(tag.name, "Record") {
                    directOpen = false
                    try finishDirect(handOver)
                    return
                }
            } else if tag.kind == .empty, XMLText.equals(tag.name, "MetadataEntry"), direct!.addMetadata(tag) {
                directTags.append(tag)
                return
            }
            readDirectRecordInFull()
        }
        if tag.kind == .close {
            try close(tag, emit: emit, handOver: handOver)
            return
        }
        if tag.hasInvalidUTF8 {
            // Text that is not UTF-8 is never read as U+FFFD: the records and elements it is part of are rejected.
            for index in stack.indices where stack[index].pending != nil && stack[index].pending!.rejection == nil {
                stack[index].pending!.rejection = ExportRecordMapper.invalidUTF8Reason(line: tag.line,
                                                                                      recordLine: stack[index].pending!.line)
            }
        }
        let isEmpty = tag.kind == .empty
        guard let top = stack.last?.kind else {
            try openRoot(tag)
            if tag.hasInvalidUTF8, XMLText.equals(tag.name, "HealthData") {
                try emit(.problem(line: tag.line, message: "the <\(tag.nameText)> tag holds bytes that are not valid UTF-8, so its "
                                  + "attributes were not read; correct them or name the file's real encoding in its XML declaration"))
            }
            return
        }
        switch top {
        case .root:
            if XMLText.equals(tag.name, "Record"), direct != nil, direct!.begin(tag) {
                if isEmpty { try finishDirect(handOver) } else {
                    directTags.removeAll()
                    directTags.append(tag)
                    directOpen = true
                }
            } else if XMLText.equals(tag.name, "Record") {
                var pending = mapper.beginRecord(tag)
                pending.deferIdentity = deferIdentity
                if isEmpty { try emit(.record(mapper.finish(pending))) } else {
                    stack.append(Frame(name: "Record", kind: .record, pending: pending))
                }
            } else if XMLText.equals(tag.name, "ExportDate") {
                let value = tag.attributes.first { XMLText.equals($0.name, "value") }
                summary.exportDate = value.flatMap { ExportRecordMapper.date($0) }
                if !isEmpty { stack.append(Frame(name: "ExportDate", kind: .skip)) }
            } else if XMLText.equals(tag.name, "Me") {
                if tag.hasInvalidUTF8 {
                    try emit(.problem(line: tag.line, message: "the <Me> element holds bytes that are not valid UTF-8, so no "
                                      + "characteristic was read from it; correct them or name the file's real encoding in its XML declaration"))
                } else {
                    try emit(.characteristics(tag.attributes.map { ($0.nameText, $0.value) }, line: tag.line))
                }
                if !isEmpty { stack.append(Frame(name: "Me", kind: .skip)) }
            } else {
                let name = tag.nameText
                // Elements of kinds newer than this version are kept too, so a Health XML export writes them back;
                // one that names no date of its own is dated 2001-01-01 (not by the export, whose date changes
                // from export to export).
                let known = HealthExportReader.genericElements.contains(name)
                // hkctl's own export of a summary without sync keys (a build before them wrote it) dates that
                // summary by the backup, not the phone: it is its day's lowest version (``ActivitySummaryVersion``).
                let versionDate = scanner.writtenByHkctl ? nil : summary.exportDate
                let pending = mapper.beginElement(tag, fallbackDate: known ? summary.exportDate : HealthExportReader.undatedElementDate,
                                                  versionDate: versionDate)
                if isEmpty { try emit(.record(mapper.finish(pending))) } else {
                    stack.append(Frame(name: name, kind: .element, pending: pending))
                }
            }
        case .record, .element:
            let index = stack.count - 1
            if XMLText.equals(tag.name, "MetadataEntry") {
                mapper.addMetadata(tag, to: &stack[index].pending!)
                if stack[index].node != nil { stack[index].node!.children.append(ExportNode(tag)) }
                if !isEmpty { stack.append(Frame(name: "MetadataEntry", kind: .skip)) }
            } else if XMLText.equals(tag.name, "Record") {
                var pending = mapper.beginRecord(tag)
                // Records inside a correlation are kept inside it too; a record nested in a record is not.
                let node = top == .element ? ExportNode(tag) : nil
                pending.deferIdentity = deferIdentity && node == nil
                pending.isMember = node != nil
                if isEmpty {
                    let mapped = mapper.finish(pending)
                    try emit(.record(mapped))
                    if let node {
                        stack[index].pending!.children.append(node)
                        stack[index].pending!.members += CompositeImport.member(mapped)
                    }
                } else {
                    stack.append(Frame(name: "Record", kind: .record, pending: pending, node: node))
                }
            } else {
                let node = ExportNode(tag)
                if isEmpty { attach(node, to: index) } else { stack.append(Frame(name: node.name, kind: .capture, node: node)) }
            }
        case .capture:
            let node = ExportNode(tag)
            if isEmpty {
                attach(node, to: stack.count - 1)
            } else {
                stack.append(Frame(name: node.name, kind: .capture, node: node))
            }
        case .skip:
            if !isEmpty { stack.append(Frame(name: tag.nameText, kind: .skip)) }
        }
    }

    /// Adds the direct record just encoded to the group, handing the group over when full.
    private func finishDirect(_ handOver: (consuming Event) throws -> Void) throws {
        let group = self.group ?? DirectRecordGroup()
        direct!.finish(into: group)
        if group.isFull {
            self.group = nil
            group.fields = direct!.fields()
            try handOver(.direct(group))
        } else {
            self.group = group
        }
    }

    /// Reads the open direct record the general way from its kept tags, when a child or its end calls for it.
    private func readDirectRecordInFull() {
        var pending: PendingRecord?
        directTags.replay { tag in
            if pending == nil {
                pending = mapper.beginRecord(tag)
                pending!.deferIdentity = deferIdentity
            } else {
                mapper.addMetadata(tag, to: &pending!)
            }
        }
        stack.append(Frame(name: "Record", kind: .record, pending: pending))
        directOpen = false
    }

    private func openRoot(_ tag: XMLTag) throws {
        let name = tag.nameText
        if firstElement == nil { firstElement = name }
        guard name == "HealthData", !sawRoot else {
            if sawRoot {
                summary.skippedElements[name + " (after </HealthData>)", default: 0] += 1
                if tag.kind == .open { stack.append(Frame(name: name, kind: .skip)) }
                return
            }
            throw ImportError.notAnExport(displayName, found: "its first element is <\(name)>, not <HealthData>")
        }
        sawRoot = true
        summary.locale = tag.hasInvalidUTF8 ? nil : tag.attributes.first { XMLText.equals($0.name, "locale") }?.value
        if tag.kind == .open { stack.append(Frame(name: name, kind: .root)) } else { rootClosed = true }
    }

    /// Adds a finished child node to the frame at `index`.
    private func attach(_ node: ExportNode, to index: Int) {
        switch stack[index].kind {
        case .record, .element:
            stack[index].pending!.children.append(node)
            if stack[index].node != nil { stack[index].node!.children.append(node) }
        case .capture:
            stack[index].node!.children.append(node)
        case .root, .skip:
            break
        }
    }

    private func close(_ tag: XMLTag, emit: (consuming Event) throws -> Void,
                       handOver: (consuming Event) throws -> Void) throws {
        guard let match = stack.lastIndex(where: { $0.name.utf8.elementsEqual(tag.name) }) else {
            try emit(.problem(line: tag.line, message: "the closing tag </\(tag.nameText)> has no matching start tag"))
            return
        }
        while stack.count - 1 > match {
            let frame = stack.removeLast()
            if let pending = frame.pending, frame.kind == .record || frame.kind == .element {
                try emit(.record(.rejected(type: pending.typeIdentifier, line: pending.line,
                                           reason: "the <\(frame.name)> is not closed before </\(tag.nameText)> on line \(tag.line)")))
            }
        }
        let frame = stack.removeLast()
        switch frame.kind {
        case .record, .element:
            let mapped = mapper.finish(frame.pending!)
            try emit(.record(mapped))
            if let node = frame.node, !stack.isEmpty {
                attach(node, to: stack.count - 1)
                if stack[stack.count - 1].pending != nil { stack[stack.count - 1].pending!.members += CompositeImport.member(mapped) }
            }
        case .capture:
            if let node = frame.node, !stack.isEmpty { attach(node, to: stack.count - 1) }
        case .root:
            rootClosed = true
        case .skip:
            break
        }
    }
}
