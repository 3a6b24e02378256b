// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "hkctl",
    products: [
        .library(name: "HealthCore", targets: ["HealthCore"]),
        .executable(name: "hkctl", targets: ["hkctl"]),
    ],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(name: "HealthCore", dependencies: ["CZlib"]),
        .executableTarget(
            name: "hkctl", dependencies: ["HealthCore"],
            // The release build is one fully static executable: no dynamic loading at start-up (see BENCHMARKS.md).
            swiftSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))]),
        .testTarget(name: "HealthCoreTests", dependencies: ["HealthCore"]),
        .testTarget(name: "hkctlTests", dependencies: ["hkctl", "HealthCore"]),
    ]
)
