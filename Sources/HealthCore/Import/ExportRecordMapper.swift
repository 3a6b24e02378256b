/// A record or element being read: the fields taken from its start tag, then its children.
struct PendingRecord {
    /// The line of its start tag.
    var line: Int
    /// The element name (`Record`, `Workout`, ...).
    var element: String
    var typeIdentifier: String
    /// The catalogued type, shared by reference: a record is moved around several times while it is read.
    var typeBox: SampleTypeBox?
    var type: SampleType? { typeBox?.type }
    var start: Date?
    var end: Date?
    var created: Date?
    var value: SampleValue?
    var source: String?
    var sourceVersion: String?
    var device: String?
    var metadata: [String: MetadataValue] = [:]
    /// Children kept as written (`WorkoutStatistics`, a beat list, the records of a correlation).
    var children: [ExportNode] = []
    /// For a correlation: the records read inside it.
    var members: [CorrelationDetail.Member] = []
    /// Why it will be rejected, when that is known from the start tag.
    var rejection: String?
    /// Whether it is kept generically (untyped).
    var generic: Bool
    /// Whether ``ExportRecordMapper/finish(_:)`` leaves the UUID as ``RecordIdentity/placeholder`` for the importer
    /// to derive from the identity (on its storing thread); only for records that are not inside another element.
    var deferIdentity = false
    /// Whether it is a record inside a correlation (see ``MappedRecord/sample(_:generic:member:)``).
    var isMember = false
}

/// A catalogued type held by reference.
final class SampleTypeBox {
    let type: SampleType
    init(_ type: SampleType) { self.type = type }
}

/// What a finished record became.
enum MappedRecord {
    /// A sample to store; `generic` when kept untyped; `member` for a record inside a correlation, which the export
    /// also writes at top level: the two are one HealthKit object, so it never counts as another occurrence.
    case sample(Sample, generic: Bool, member: Bool = false)
    /// Left out; payload: the type (or element) and why.
    case rejected(type: String, line: Int, reason: String)
}

/// Turns export elements into samples: typed ones for types in the catalogue, generic ones otherwise.
///
/// Attribute values are read straight from the scanner's buffer; strings that repeat (types, units, sources,
/// devices, metadata keys) are made once and shared.
struct ExportRecordMapper {
    let catalogue: SampleTypeCatalogue
    private var identity: RecordIdentity
    private var typeNames = ByteStringCache(capacity: 2048)
    private var typeInfo: [SampleTypeBox?] = []
    private var unitNames = ByteStringCache(capacity: 2048)
    private var units: [Result<HealthUnit, UnitError>] = []
    private var sources = ByteStringCache(capacity: 4096)
    private var versions = ByteStringCache(capacity: 4096)
    private var devices = ExportDeviceCache()
    private var keys = ByteStringCache(capacity: 4096)
    /// How many records read inside correlations had each identity so far: the second identical member (two identical
    /// food entries or blood pressure readings, each holding its own copy of a record) is that identity's second
    /// occurrence, as the second top-level copy is, so that each correlation keeps a member of its own.
    private var memberOccurrences: [UUID: Int] = [:]
    private var values = ByteStringCache(capacity: 8192)
    private var categoryValues: [String: [String: Int]] = [:]
    /// Where the GPX files of workout routes are, if they can be reached.
    var routeFiles: WorkoutRouteFiles?
    /// The route files workouts named that could not be read (the first few), and how many.
    private(set) var missingRoutes: [String] = []
    private(set) var missingRouteCount = 0
    /// Attributes not understood, by `Element@attribute`, with how often they were skipped.
    private(set) var skippedAttributes: [String: Int] = [:]

    init(catalogue: SampleTypeCatalogue) {
        self.catalogue = catalogue
        identity = RecordIdentity(catalogue: catalogue)
    }

    /// The type identifiers of elements other than `Record` that have no `type` attribute of their own.
    static let elementTypeIdentifiers = [
        "Workout": "HKWorkoutTypeIdentifier", "ActivitySummary": "HKActivitySummaryTypeIdentifier",
        "WorkoutActivity": "HKWorkoutActivityTypeIdentifier", "WorkoutRoute": "HKWorkoutRouteTypeIdentifier",
    ]
    /// Elements whose source and dates are sample fields (`sourceName`, `startDate`, ...); the others keep every
    /// attribute as written.
    static let sampleLikeElements: Set<String> = ["Workout", "Correlation", "Audiogram", "WorkoutActivity", "WorkoutRoute"]
    /// The source of elements that name none (activity summaries).
    static let defaultSource = "Health"

    // MARK: - Record

    /// Why the record starting on `recordLine` is refused when `line` (its own tag or one inside it) holds bytes that
    /// are not UTF-8: read, they would become U+FFFD, and two different names (`caf\u{E9}`, `caf\u{E8}` in Latin-1) one.
    static func invalidUTF8Reason(line: Int, recordLine: Int) -> String {
        (line == recordLine ? "it holds" : "line \(line), inside it, holds")
            + " bytes that are not valid UTF-8, the export's encoding (declared, or XML's default); correct them, or name "
            + "the file's real encoding in its XML declaration (encoding=\"ISO-8859-1\")"
    }

    /// Reads a `Record` start tag; a tag that is not UTF-8 rejects the record.
    mutating func beginRecord(_ tag: XMLTag) -> PendingRecord {
        var pending = readRecordTag(tag)
        if tag.hasInvalidUTF8 { pending.rejection = Self.invalidUTF8Reason(line: tag.line, recordLine: tag.line) }
        return pending
    }

    private mutating func readRecordTag(_ tag: XMLTag) -> PendingRecord {
        var typeAttribute: XMLAttribute?, unitAttribute: XMLAttribute?, valueAttribute: XMLAttribute?
        var pending = PendingRecord(line: tag.line, element: "Record", typeIdentifier: "", generic: false)
        var badDate: (String, String)?
        for attribute in tag.attributes {
            let name = attribute.name
            switch name.count {
            case 4 where XMLText.equals(name, "type"): typeAttribute = attribute
            case 4 where XMLText.equals(name, "unit"): unitAttribute = attribute
            case 5 where XMLText.equals(name, "value"): valueAttribute = attribute
            case 6 where XMLText.equals(name, "device"): pending.device = device(attribute)
            case 7 where XMLText.equals(name, "endDate"):
                pending.end = Self.date(attribute)
                if pending.end == nil { badDate = badDate ?? ("endDate", attribute.value) }
            case 9 where XMLText.equals(name, "startDate"):
                pending.start = Self.date(attribute)
                if pending.start == nil { badDate = badDate ?? ("startDate", attribute.value) }
            case 10 where XMLText.equals(name, "sourceName"): pending.source = Self.cached(attribute, in: &sources)
            // iOS 8 exports named the source `source`.
            case 6 where XMLText.equals(name, "source"): pending.source = pending.source ?? Self.cached(attribute, in: &sources)
            case 12 where XMLText.equals(name, "creationDate"):
                pending.created = Self.date(attribute)
                if pending.created == nil { badDate = badDate ?? ("creationDate", attribute.value) }
            case 13 where XMLText.equals(name, "sourceVersion"): pending.sourceVersion = Self.cached(attribute, in: &versions)
            default:
                if name.contains(0x20) {
                    // iOS 8 exports wrote metadata as attributes whose names hold spaces.
                    pending.metadata[attribute.nameText] = .string(LocalizedDigits.ascii(attribute.value))
                } else {
                    // Kept as an attribute of the record (`@recordCount` of iOS 8 exports): the Health XML export
                    // writes it back.
                    pending.metadata[RecordIdentity.attributePrefix + attribute.nameText] = .string(LocalizedDigits.ascii(attribute.value))
                }
            }
        }
        guard let typeAttribute else {
            pending.typeIdentifier = "(no type)"
            pending.rejection = "the record has no 'type' attribute"
            return pending
        }
        let (typeID, typeText) = typeNames.lookup(typeAttribute.rawValue) { _ in typeAttribute.value }
        pending.typeIdentifier = typeText
        let box: SampleTypeBox?
        if let typeID {
            while typeInfo.count <= typeID {
                typeInfo.append(catalogue.type(identifier: typeNames.text(typeInfo.count)).map(SampleTypeBox.init))
            }
            box = typeInfo[typeID]
        } else {
            box = catalogue.type(identifier: typeText).map(SampleTypeBox.init)
        }
        pending.typeBox = box
        let type = box?.type
        if let (field, text) = badDate {
            pending.rejection = "the \(field) '\(text)' is \(ExportDateParser.whyNotADate(text))"
            return pending
        }
        if pending.source == nil { pending.rejection = "the record has no 'sourceName' attribute" }
        guard let type else {
            pending.generic = true
            pending.value = .generic(value: valueAttribute.map { LocalizedDigits.ascii(Self.cached($0, in: &values)) } ?? "",
                                     unit: unitAttribute.map { Self.cached($0, in: &unitNames) })
            return pending
        }
        switch type.kind {
        case .quantity:
            guard let valueAttribute else {
                pending.rejection = pending.rejection ?? "the record has no 'value' attribute"
                return pending
            }
            guard let number = DecimalParser.parse(valueAttribute.rawValue)
                ?? LocalizedDigits.folded(valueAttribute.rawValue).flatMap(DecimalParser.parse) else {
                pending.rejection = pending.rejection ?? "the value '\(valueAttribute.value)' is not a number"
                return pending
            }
            guard let unitAttribute else {
                pending.rejection = pending.rejection ?? "the record has no 'unit' attribute"
                return pending
            }
            switch unit(unitAttribute) {
            case let .success(unit): pending.value = .quantity(Quantity(number, unit))
            case let .failure(error): pending.rejection = pending.rejection ?? error.description
            }
        case .category:
            guard let valueAttribute else {
                if type.categoryValues.count == 1 {
                    pending.value = .category(type.categoryValues[0].rawValue)
                } else {
                    pending.rejection = pending.rejection ?? "the record has no 'value' attribute"
                }
                return pending
            }
            let text = Self.cached(valueAttribute, in: &values)
            if let raw = categoryRaw(text, of: type) {
                pending.value = .category(raw)
            } else {
                // A value this version does not know (a newer stage): kept as written.
                pending.generic = true
                pending.value = .generic(value: LocalizedDigits.ascii(text), unit: unitAttribute.map { Self.cached($0, in: &unitNames) })
            }
        case .characteristic:
            pending.rejection = pending.rejection ?? "\(type.name) is a characteristic, not a sample type"
        case .workout, .correlation:
            pending.rejection = pending.rejection ?? "\(type.name) is not kept as a Record element"
        }
        return pending
    }

    /// Adds a `MetadataEntry` child to `pending`: its value as text, or as a number when the entry is marked
    /// `hkctlType="number"` (``MetadataEntryForm``), as the Health XML export (``HealthXMLWriter``) marks numbers.
    mutating func addMetadata(_ tag: XMLTag, to pending: inout PendingRecord) {
        if tag.hasInvalidUTF8 {
            pending.rejection = pending.rejection ?? Self.invalidUTF8Reason(line: tag.line, recordLine: pending.line)
            return
        }
        var key: String?, value: String?, type: String?
        for attribute in tag.attributes {
            if XMLText.equals(attribute.name, "key") {
                key = Self.cached(attribute, in: &keys)
            } else if XMLText.equals(attribute.name, "value") {
                value = Self.cached(attribute, in: &values)
            } else if XMLText.equals(attribute.name, "hkctlType") {
                type = attribute.value
            } else {
                skippedAttributes["MetadataEntry@" + attribute.nameText, default: 0] += 1
            }
        }
        guard let key else {
            skippedAttributes["MetadataEntry without key", default: 0] += 1
            return
        }
        let text = LocalizedDigits.ascii(value ?? "")
        switch type {
        case nil:
            pending.metadata[key] = .string(text)
        case MetadataEntryForm.numberType?:
            guard let number = DecimalParser.parse(text) else {
                pending.rejection = pending.rejection ?? "the metadata entry '\(key)' is marked hkctlType=\"number\" but its value "
                    + "'\(text)' is not a finite number; correct the value or remove the mark to keep it as text"
                return
            }
            pending.metadata[key] = .number(number)
        case let other?:
            // A type this version does not know (written by a newer one): the value is kept as the text it is.
            skippedAttributes["MetadataEntry@hkctlType=\"\(other)\"", default: 0] += 1
            pending.metadata[key] = .string(text)
        }
    }

    // MARK: - Other elements

    /// Reads the start tag of a `Workout`, `Correlation`, `ActivitySummary` or another element kept generically; a
    /// tag that is not UTF-8 rejects the element.
    ///
    /// - Parameter versionDate: The date a day's activity summary is versioned by (``ActivitySummaryVersion``): the
    ///   export's, nil for hkctl's own exports.
    mutating func beginElement(_ tag: XMLTag, fallbackDate: Date?, versionDate: Date?) -> PendingRecord {
        var pending = readElementTag(tag, fallbackDate: fallbackDate, versionDate: versionDate)
        if tag.hasInvalidUTF8 { pending.rejection = Self.invalidUTF8Reason(line: tag.line, recordLine: tag.line) }
        return pending
    }

    private mutating func readElementTag(_ tag: XMLTag, fallbackDate: Date?, versionDate: Date?) -> PendingRecord {
        let element = tag.nameText
        let sampleLike = ExportRecordMapper.sampleLikeElements.contains(element)
        var pending = PendingRecord(line: tag.line, element: element,
                                    typeIdentifier: ExportRecordMapper.elementTypeIdentifiers[element] ?? "", generic: true)
        pending.metadata["@element"] = .string(element)
        var mainValue = ""
        var dayStart: Date?
        var day: String?
        for attribute in tag.attributes {
            let name = attribute.nameText
            if name == "type" && pending.typeIdentifier.isEmpty {
                pending.typeIdentifier = Self.cached(attribute, in: &typeNames)
                continue
            }
            if name == "device" {
                pending.device = device(attribute)
                continue
            }
            if sampleLike {
                switch name {
                case "sourceName": pending.source = Self.cached(attribute, in: &sources); continue
                case "source" where pending.source == nil: pending.source = Self.cached(attribute, in: &sources); continue
                case "sourceVersion": pending.sourceVersion = Self.cached(attribute, in: &versions); continue
                case "startDate", "endDate", "creationDate":
                    guard let date = Self.date(attribute) else {
                        // The first bad date is named (an export writes creationDate, startDate, endDate).
                        pending.rejection = pending.rejection ?? "the \(name) '\(attribute.value)' is \(ExportDateParser.whyNotADate(attribute.value))"
                        continue
                    }
                    switch name {
                    case "startDate": pending.start = date
                    case "endDate": pending.end = date
                    default: pending.created = date
                    }
                    continue
                default: break
                }
            } else if name == "sourceName" {
                pending.source = Self.cached(attribute, in: &sources)
            }
            let value = LocalizedDigits.ascii(attribute.value)
            pending.metadata["@" + name] = .string(value)
            if name == "workoutActivityType" { mainValue = value }
            if pending.start == nil, DayDatedRecord.attributes.contains(name) {
                if let date = ExportDateParser.parse(value) {
                    pending.start = date
                } else if let parts = try? ISODate.components(value), !parts.hasTime {
                    dayStart = ISODate.instant(parts, offsetSeconds: 0)
                    if name == "dateComponents" { day = value }
                }
            }
        }
        // A day's summary is one object that later exports write again (``ActivitySummaryVersion``).
        if element == ActivitySummaryVersion.element, let day, dayStart != nil {
            ActivitySummaryVersion.mark(&pending.metadata, day: day, exportDate: versionDate)
        }
        if pending.typeIdentifier.isEmpty { pending.typeIdentifier = "HKExportElement" + element }
        pending.start = pending.start ?? dayStart ?? (sampleLike ? nil : fallbackDate)
        if pending.start == nil, pending.rejection == nil { pending.rejection = "the \(element) has no start date" }
        pending.end = pending.end ?? pending.start
        pending.source = pending.source ?? ExportRecordMapper.defaultSource
        pending.value = .generic(value: mainValue, unit: nil)
        return pending
    }

    // MARK: - Finishing

    /// The sample `pending` becomes, or why it is rejected.
    mutating func finish(_ pending: PendingRecord) -> MappedRecord {
        if let rejection = pending.rejection {
            return .rejected(type: pending.typeIdentifier, line: pending.line, reason: rejection)
        }
        guard let start = pending.start, let end = pending.end, let value = pending.value, let source = pending.source else {
            let missing = pending.start == nil ? "startDate" : pending.end == nil ? "endDate" : "value"
            return .rejected(type: pending.typeIdentifier, line: pending.line, reason: "the record has no '\(missing)' attribute")
        }
        var metadata = pending.metadata
        if !pending.children.isEmpty { metadata["@children"] = .string(ExportNode.json(pending.children)) }
        var sample = Sample(uuid: RecordIdentity.placeholder, typeIdentifier: pending.typeIdentifier, start: start, end: end,
                            value: value, source: source, created: pending.created ?? end, metadata: metadata,
                            sourceVersion: pending.sourceVersion, device: pending.device)
        if let problem = TextRules.problem(in: sample) ?? SyncReplacement.problem(in: sample) {
            return .rejected(type: pending.typeIdentifier, line: pending.line, reason: problem)
        }
        if let type = pending.typeBox?.type, !pending.generic {
            do {
                try sample.validated(as: type)
            } catch {
                return .rejected(type: pending.typeIdentifier, line: pending.line, reason: "\(error)")
            }
        } else if end < start {
            return .rejected(type: pending.typeIdentifier, line: pending.line,
                             reason: "the end is before the start; give the earlier time first")
        }
        if !pending.deferIdentity { sample.uuid = identity.uuid(for: sample) }
        // A record with sync keys is one sample however many correlations hold it (its top-level copies, which
        // follow HealthKit's rule, are too).
        if pending.isMember, (try? SyncReplacement.mark(of: sample)) ?? nil == nil {
            // Numbered as ``IdentityIndex`` numbers top-level twins (``RecordIdentity/occurrence(_:of:)``).
            let number = (memberOccurrences[sample.uuid] ?? 0) + 1
            memberOccurrences[sample.uuid] = number
            if number > 1 { sample.uuid = RecordIdentity.occurrence(number, of: sample.uuid) }
        }
        // Workouts and correlations are typed after their identity is taken from the export form, so the identity
        // is the same as when they were kept generically.
        if let typed = CompositeImport.typed(sample, element: pending.element, members: pending.members, routes: routeFiles) {
            if pending.element == WorkoutExportForm.element, Workout(sample: typed)?.detail.route == nil,
               let path = WorkoutExportForm.routePath(of: sample) {
                missingRouteCount += 1
                if missingRoutes.count < ImportReceipt.missingRouteFilesShown { missingRoutes.append(path) }
            }
            return .sample(typed, generic: false, member: pending.isMember)
        }
        // A state of mind a Health XML export wrote (``StateOfMindExportForm``), typed after its identity likewise.
        if pending.element == "Record", pending.typeIdentifier == StateOfMind.typeIdentifier, let typed = StateOfMindExportForm.typed(sample) {
            return .sample(typed, generic: false, member: pending.isMember)
        }
        return .sample(sample, generic: pending.generic, member: pending.isMember)
    }

    // MARK: - Helpers

    /// The date the attribute holds, in ASCII digits or a locale's own (``LocalizedDigits``).
    static func date(_ attribute: XMLAttribute) -> Date? {
        ExportDateParser.parse(attribute.rawValue) ?? LocalizedDigits.folded(attribute.rawValue).flatMap(ExportDateParser.parse)
    }

    private static func cached(_ attribute: XMLAttribute, in cache: inout ByteStringCache) -> String {
        cache.lookup(attribute.rawValue) { _ in attribute.value }.string
    }

    private mutating func unit(_ attribute: XMLAttribute) -> Result<HealthUnit, UnitError> {
        let (id, text) = unitNames.lookup(attribute.rawValue) { _ in attribute.value }
        func parse(_ text: String) -> Result<HealthUnit, UnitError> {
            do { return .success(try HealthUnit(parsing: text)) } catch let error as UnitError { return .failure(error) } catch {
                return .failure(.unknownUnit(text))
            }
        }
        guard let id else { return parse(text) }
        while units.count <= id { units.append(parse(unitNames.text(units.count))) }
        return units[id]
    }

    private mutating func categoryRaw(_ text: String, of type: SampleType) -> Int? {
        if let raw = categoryValues[type.identifier]?[text] { return raw }
        guard let value = try? type.categoryValue(named: text) else { return nil }
        categoryValues[type.identifier, default: [:]][text] = value.rawValue
        return value.rawValue
    }

    /// The device without its memory address.
    private mutating func device(_ attribute: XMLAttribute) -> String? { devices.device(attribute).text }
}
