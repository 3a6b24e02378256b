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
        .executableTarget(name: "hkctl", dependencies: ["HealthCore"]),
        .testTarget(name: "HealthCoreTests", dependencies: ["HealthCore"]),
        .testTarget(name: "hkctlTests", dependencies: ["hkctl", "HealthCore"]),
    ]
)
