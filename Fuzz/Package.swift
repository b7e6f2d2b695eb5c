// swift-tools-version: 6.1
import PackageDescription

// The libFuzzer targets of Trellis, in a package of their own so that the
// main package and its continuous integration build stay as they are.
// They build on Linux with the fuzzer and address sanitizers (see `run`):
//
//     swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//
// Each target is an executable that defines `LLVMFuzzerTestOneInput` and
// whose `main` hands the process to libFuzzer (`LLVMFuzzerRunDriver`):
// SwiftPM links each executable's `main` to `<Target>_main`, so libFuzzer's
// own `main` can not be the entry point. `-parse-as-library` keeps Swift
// from defining an entry point of its own.
let package = Package(
    name: "TrellisFuzz",
    dependencies: [
        .package(name: "Trellis", path: ".."),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["FuzzDriver"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // The schema inspector behind `trellis inspect`, compiled from its
        // own sources: the command's module also holds the demo, which
        // needs the object store and its macros, and so swift-syntax.
        .target(
            name: "FuzzedInspector",
            dependencies: [.product(name: "Trellis", package: "Trellis")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "InspectorFuzzer",
            dependencies: ["FuzzSupport", "FuzzedInspector", .product(name: "Trellis", package: "Trellis")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "FullTextPatternFuzzer",
            dependencies: ["FuzzSupport", .product(name: "Trellis", package: "Trellis")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "RecordDecodingFuzzer",
            dependencies: ["FuzzSupport", .product(name: "Trellis", package: "Trellis")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
