import TextSupport

/// The device that measured a sample: HealthKit's `HKDevice`. Stored with the sample as `key:value` text
/// (`name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1`), as an Apple Health
/// export writes it.
public struct Device: Hashable, Sendable {
    /// The device's name (`Apple Watch`).
    public let name: String?
    /// Who made it (`Apple Inc.`).
    public let manufacturer: String?
    /// The model (`Watch`).
    public let model: String?
    /// The hardware version (`Watch6,2`).
    public let hardwareVersion: String?
    /// The firmware version.
    public let firmwareVersion: String?
    /// The software version (`10.1`).
    public let softwareVersion: String?
    /// An identifier the maker gives the device.
    public let localIdentifier: String?
    /// The FDA's unique device identifier.
    public let udiDeviceIdentifier: String?

    /// A device, as `HKDevice(name:manufacturer:model:hardwareVersion:firmwareVersion:softwareVersion:localIdentifier:udiDeviceIdentifier:)`.
    public init(name: String?, manufacturer: String?, model: String?, hardwareVersion: String?, firmwareVersion: String?,
                softwareVersion: String?, localIdentifier: String?, udiDeviceIdentifier: String?) {
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.hardwareVersion = hardwareVersion
        self.firmwareVersion = firmwareVersion
        self.softwareVersion = softwareVersion
        self.localIdentifier = localIdentifier
        self.udiDeviceIdentifier = udiDeviceIdentifier
    }

    /// The field names of the stored text, in the order they are written.
    private static let keys = ["name", "manufacturer", "model", "hardware", "firmware", "software", "localIdentifier",
                               "UDIDeviceIdentifier"]

    /// The device a sample's stored `device` text describes.
    init(storedText text: String) {
        let fields = DeviceDescription(normalized: text).fields
        func value(_ key: String) -> String? { fields.first { $0.key == key }?.value }
        self.init(name: value("name"), manufacturer: value("manufacturer"), model: value("model"),
                  hardwareVersion: value("hardware"), firmwareVersion: value("firmware"), softwareVersion: value("software"),
                  localIdentifier: value("localIdentifier"), udiDeviceIdentifier: value("UDIDeviceIdentifier"))
    }

    /// The text a sample stores for this device: its fields that are set, as `key:value` pairs.
    var storedText: String? {
        let values = [name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion, localIdentifier,
                      udiDeviceIdentifier]
        let pairs = zip(Device.keys, values).compactMap { key, value in value.map { "\(key):\($0)" } }
        return pairs.isEmpty ? nil : pairs.joined(separator: ", ")
    }
}
