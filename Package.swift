// swift-tools-version:6.0
import PackageDescription

/// Release builds reach generic type metadata through direct accessor calls rather than by demangling type
/// names at run time, which spares every command a few hundred thousand instructions at start-up (BENCHMARKS.md).
/// SwiftPM refuses unsafe flags in a dependency pinned to a version, so a checkout at a git tag (which is how
/// another package depends on HealthCore by version; checked with a local tagged clone) builds without them, and
/// so does a release build of this repository while a tag is checked out. A registry or source-archive copy has
/// no git information and would still carry the flag: depend on this package through git.
let directMetadataAccess: [SwiftSetting] = Context.gitInformation?.currentTag != nil ? [] : [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
]

let package = Package(
    name: "hkctl",
    products: [
        .library(name: "HealthCore", targets: ["HealthCore"]),
        .executable(name: "hkctl", targets: ["hkctl"]),
    ],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(name: "HealthCore", dependencies: ["CZlib"], swiftSettings: directMetadataAccess),
        .executableTarget(
            name: "hkctl", dependencies: ["HealthCore"],
            // The release build is one fully static executable: no dynamic loading at start-up (see BENCHMARKS.md).
            swiftSettings: directMetadataAccess
                + [.unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))]),
        .testTarget(name: "HealthCoreTests", dependencies: ["HealthCore"]),
        .testTarget(name: "hkctlTests", dependencies: ["hkctl", "HealthCore"]),
    ]
)
