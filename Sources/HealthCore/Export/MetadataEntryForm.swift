/// How a Health XML export writes one metadata entry so that an import reads back the same value of the same type.
///
/// Apple's exports write every value as text (`<MetadataEntry key="HKWasUserEntered" value="1"/>`), and an import
/// keeps such a value as the string it is. A number is written the same way with one attribute more,
/// `hkctlType="number"` (`<MetadataEntry key="count" value="42" hkctlType="number"/>`), which the importer reads
/// back as the number; tools written for Apple's exports read `key` and `value` and pass over it. Dates and
/// quantities are strings in the store's model (`"2024-03-10 01:59:00 -0800"`, `"120 count/min"`), as in Apple's export,
/// and go out and back as those strings.
enum MetadataEntryForm {
    /// The element's name.
    static let element = "MetadataEntry"
    /// The attribute that marks a value's type when it is not a string.
    static let typeAttribute = "hkctlType"
    /// The value of ``typeAttribute`` for a number.
    static let numberType = "number"

    /// The `MetadataEntry` node for `key` and `value`.
    static func node(key: String, value: MetadataValue) -> ExportNode {
        var attributes = [ExportNode.Attribute(name: "key", value: key), ExportNode.Attribute(name: "value", value: value.text)]
        if case .number = value { attributes.append(ExportNode.Attribute(name: typeAttribute, value: numberType)) }
        return ExportNode(name: element, attributes: attributes)
    }
}
