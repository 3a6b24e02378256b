// swift-tools-version:6.0
import PackageDescription

/// Release builds reach generic type metadata through direct accessor calls rather than by demangling type
/// names at run time, which spares every command a few hundred thousand instructions at start-up (BENCHMARKS.md).
/// SwiftPM refuses unsafe flags in a dependency pinned to a version, so a checkout at a git tag (which is how
/// another package depends on HealthCore by version; checked with a local tagged clone) builds without them, and
/// so does a release build of this repository while a tag is checked out. A registry or source-archive copy has
/// no git information and would still carry the flag: depend on this package through git.
let isTaggedCheckout = Context.gitInformation?.currentTag != nil
let directMetadataAccess: [SwiftSetting] = isTaggedCheckout ? [] : [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
]

/// Release builds leave out Swift's run-time exclusivity checks (`swift_beginAccess` on every access to a class's
/// stored property or a global), as the standard library itself is built: they cost the export.xml import a tenth of
/// its instructions (BENCHMARKS.md). A correct program behaves the same; the debug build, which every test runs,
/// keeps the checks, so a conflicting access still traps there.
let uncheckedExclusivity: [SwiftSetting] = isTaggedCheckout ? [] : [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

/// Debug builds skip LLVM's verifier of the IR the Swift compiler emits, a check for compiler bugs that the toolchain
/// runs by default: about 3 % of the CPU time of the debug build `swift test` makes (BENCHMARKS.md, session 27). What
/// the program does is unchanged. Test targets and TestKit always take it; library targets and the executable only
/// outside a tagged checkout (above).
let skipIRVerifierFlag: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-llvm-verify"], .when(configuration: .debug))]
let skipIRVerifier: [SwiftSetting] = isTaggedCheckout ? [] : skipIRVerifierFlag

/// On Linux the release build puts each function in a section of its own, and the link (lld, named so that a change of
/// default cannot break the flags) places first the sections that hold the symbols of Sources/hkctl/hot-symbols.txt
/// (written by bench/order-functions), in its order: the functions the short commands run, then the data they touch
/// (lazy globals, metadata caches, constants; each object file's data moves whole). A command then touches fewer
/// pages of the binary (BENCHMARKS.md, session 43). Moving code and data changes nothing they do.
let packageFolder = Context.packageDirectory
let functionSections: [SwiftSetting] = isTaggedCheckout ? [] : [
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release)),
]
let hotSymbolsFirst: [LinkerSetting] = isTaggedCheckout ? [] : [
    .unsafeFlags(["-use-ld=lld",
                  "-Xlinker", "--symbol-ordering-file=\(packageFolder)/Sources/hkctl/hot-symbols.txt",
                  "-Xlinker", "--no-warn-symbol-ordering"],
                 .when(platforms: [.linux], configuration: .release)),
]

/// On Linux hkctl is one fully static executable, in every build: nothing is loaded at start-up. The release build
/// starts a command in about a millisecond (BENCHMARKS.md); the debug build, which the end-to-end tests start
/// thousands of times, in about 2 ms instead of 8. Outside a tagged checkout both link with lld, which Swift's Linux
/// toolchains ship (the release link's flags are above): it leaves glibc's notes about functions in static programs
/// (`getpwuid_r`, `mktemp`) out of the build's log. `HKCTL_DYNAMIC_DEBUG=1` links the debug build dynamically, as a
/// sanitizer run (`swift test --sanitize=address`) needs.
/// The compile of main.swift takes the flag too: its object then names the static libraries (Foundation's private
/// ones among them) that the link needs.
let dynamicDebug = Context.environment["HKCTL_DYNAMIC_DEBUG"] == "1"
let staticExecutable: [SwiftSetting] = [
    .unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release)),
] + (dynamicDebug ? [] : [
    .unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .debug)),
])
let staticLink: [LinkerSetting] = [
    .unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release)),
] + (dynamicDebug ? [] : [
    .unsafeFlags(["-static-executable", "-use-ld=lld"], .when(platforms: [.linux], configuration: .debug)),
])

/// On Linux x86-64 the executable starts at `hkctl_entry` (Sources/CStartup/startup.c): when the binary is not in
/// the page cache (the first command after a boot), it has the kernel read only the pages the command runs, in
/// parallel, before it jumps to the C library's `_start` (a cold `hkctl --version` read 20 MB of the binary and now
/// reads 1 MB: BENCHMARKS.md, session 36). Static links only: the dynamic debug build (above), other architectures
/// (of the machine that builds) and a tagged checkout (as for the flags above) start at the C library's `_start`,
/// and CStartup is then empty.
#if arch(x86_64)
let entryLinks: [BuildConfiguration] = isTaggedCheckout ? [] : dynamicDebug ? [.release] : [.release, .debug]
#else
let entryLinks: [BuildConfiguration] = []
#endif
/// The same links hand the Swift runtime its arguments from a C initialiser and spare it its reading of
/// /proc/self/maps (`--wrap=fopen`; Sources/CStartup/argv.c).
let coldStartEntry: [LinkerSetting] = entryLinks.map {
    .unsafeFlags(["-Xlinker", "-e", "-Xlinker", "hkctl_entry", "-Xlinker", "--wrap=fopen"],
                 .when(platforms: [.linux], configuration: $0))
}
/// The release link's layout for the entry (Sources/CStartup/startup.c): one read-and-execute segment from the file's
/// start with the code first, so that the entry lies on the file's first page, which the kernel reads with the
/// header; and data segments whose file parts end on a page (`-z now` makes `.got.plt` the last RELRO section, and
/// Sources/hkctl/relro-end.ld pads RELRO after it: lld leaves RELRO's last page partial, which the kernel clears while
/// it loads the program, reading megabytes around it when the binary is not in the page cache; BENCHMARKS.md,
/// session 43). `-z now` and the script go together: without it `.got.plt` is not RELRO, and lld refuses the `.jcr`
/// the script puts after it as a RELRO section that is not contiguous with the others.
let coldStartLayout: [LinkerSetting] = entryLinks.isEmpty ? [] : [
    .unsafeFlags(["-Xlinker", "--no-rosegment", "-Xlinker", "--section-start=.text=0x200400",
                  "-Xlinker", "-z", "-Xlinker", "now",
                  "-Xlinker", "-T", "-Xlinker", "\(packageFolder)/Sources/hkctl/relro-end.ld"],
                 .when(platforms: [.linux], configuration: .release)),
]
/// CStartup's entry (startup.c) runs before the C library is set up, so it must call none of it (not even the memset
/// a compiler may put in for a plain loop); argv.c runs after, as the C library's initialisers and fopen's wrapper.
/// `HKCTL_ENTRY` turns their code on where the link uses it.
/// The C targets' debug information in DWARF 4, which valgrind (3.19, Debian 12's), used by bench/order-functions and
/// to count instructions, reads; clang's default DWARF 5 in a C object stops it reading the whole binary. Outside a
/// tagged checkout only (an unsafe flag, above).
let readableDebugInfo: [CSetting] = isTaggedCheckout ? [] : [.unsafeFlags(["-gdwarf-4"])]
let startupSettings: [CSetting] = readableDebugInfo + entryLinks.map { .define("HKCTL_ENTRY", .when(platforms: [.linux], configuration: $0)) }
    + (entryLinks.isEmpty ? [] : [.unsafeFlags(["-ffreestanding", "-fno-builtin"])])

let package = Package(
    name: "hkctl",
    products: [
        .library(name: "HealthCore", targets: ["HealthCore"]),
        .executable(name: "hkctl", targets: ["hkctl"]),
    ],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // The statx(2) system call, which Swift's Glibc module leaves out: the unique id of the mount a store lies on.
        .systemLibrary(name: "CStatx", path: "Sources/CStatx"),
        // SHA-1's block compression with the processor's SHA instructions where it has them (x86-64), for the import's
        // record identities: C, because Swift has no way to name those instructions. HealthCore's SHA1 is the
        // portable definition, used elsewhere and checked against it.
        .target(name: "CDigest", cSettings: readableDebugInfo),
        // hkctl's process entry on Linux x86-64 (Package.swift's coldStartEntry): C, because it runs before the C
        // library and the Swift runtime are set up.
        .target(name: "CStartup", exclude: ["hot-pages.h"], cSettings: startupSettings),
        // Text and number helpers HealthCore and hkctl share (JSON string quoting, number formatting, trimming):
        // not a product, and `package` only, so HealthCore's public API stays the model and hkctl reaches
        // HealthCore through that API alone.
        .target(name: "TextSupport", swiftSettings: directMetadataAccess + functionSections + uncheckedExclusivity + skipIRVerifier),
        .target(name: "HealthCore", dependencies: ["CZlib", "CStatx", "CDigest", "TextSupport"], swiftSettings: directMetadataAccess + functionSections + uncheckedExclusivity + skipIRVerifier),
        // The small HTTP/1.1 server `hkctl serve` runs (request parser, response writer, limits, listener): not a
        // product, `package` only, with no HealthCore in it, so its parser is unit-tested and fuzzed without a network.
        .target(name: "IngestHTTP", dependencies: ["TextSupport"], swiftSettings: directMetadataAccess + functionSections + uncheckedExclusivity + skipIRVerifier),
        // What hkctl's commands read from people and keep for them, beside the model: times, ranges and periods as
        // typed, daily goals, settings keys, trends. Not a product, `package` only, on HealthCore's public API, so a
        // program that depends on HealthCore sees only the model; unit-tested and fuzzed without the executable.
        .target(name: "HKCtlSupport", dependencies: ["HealthCore", "TextSupport"], swiftSettings: directMetadataAccess + functionSections + uncheckedExclusivity + skipIRVerifier),
        // Everything the hkctl command does: arguments, commands, output. Not a product, `package` only; the tests
        // import it, and it reaches HealthCore through its public API alone.
        .target(name: "HKCtlCommands", dependencies: ["HealthCore", "HKCtlSupport", "TextSupport", "IngestHTTP"],
                swiftSettings: directMetadataAccess + functionSections + uncheckedExclusivity + skipIRVerifier),
        // The executable: its main.swift starts HKCtlCommands. No test target depends on it, so its link flags stay
        // its own (a dependency's linker settings would reach the test bundle's link).
        .executableTarget(
            name: "hkctl", dependencies: ["HKCtlCommands", "CStartup"], exclude: ["hot-symbols.txt", "relro-end.ld"],
            swiftSettings: staticExecutable + skipIRVerifier,
            linkerSettings: hotSymbolsFirst + staticLink + coldStartEntry + coldStartLayout),
        // What the test targets share (dates built with Foundation, samples, temporary folders), on HealthCore's public
        // API: used by test targets only.
        .target(name: "TestKit", dependencies: ["HealthCore"], path: "Tests/TestKit", swiftSettings: skipIRVerifierFlag),
        .testTarget(name: "HealthCoreTests", dependencies: ["HealthCore", "TextSupport", "TestKit", "CDigest"], swiftSettings: skipIRVerifierFlag),
        .testTarget(name: "hkctlTests", dependencies: ["HKCtlCommands", "HealthCore", "HKCtlSupport", "TextSupport", "IngestHTTP", "TestKit"], swiftSettings: skipIRVerifierFlag),
        .testTarget(name: "IngestHTTPTests", dependencies: ["IngestHTTP", "TestKit"], swiftSettings: skipIRVerifierFlag),
        .testTarget(name: "HKCtlSupportTests", dependencies: ["HKCtlSupport", "HealthCore", "TestKit"], swiftSettings: skipIRVerifierFlag),
        .testTarget(name: "SeedPortTests", dependencies: ["HealthCore", "TestKit"], swiftSettings: skipIRVerifierFlag),
        // The five fuzz harnesses of fuzz/targets, compiled with the suite and smoked over their seeds and mutations
        // (fuzz/smoke); `fuzz/run` runs the same harnesses under libFuzzer on demand.
        .testTarget(name: "FuzzHarnessTests", dependencies: ["HealthCore", "HKCtlSupport", "IngestHTTP"], path: "fuzz",
                    exclude: ["run", "corpus", "targets/Entry.swift"], swiftSettings: skipIRVerifierFlag),
    ]
)
