// swift-tools-version: 6.1
import PackageDescription

// The tests of concurrent code that continuous integration runs under
// ThreadSanitizer (see `run`), in a package of their own: the sanitizer
// instruments every module it builds, and this package builds Trellis and
// these tests only. The main package's test targets would bring the
// object store, its macros and so swift-syntax, whose build alone takes
// longer than CI allows.
//
// The test files are links to those of Tests/TrellisTests: they run in
// both packages, and are written once.
let package = Package(
    name: "TrellisTSan",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    dependencies: [
        .package(name: "Trellis", path: ".."),
    ],
    targets: [
        .testTarget(
            name: "ConcurrencyTests",
            dependencies: [.product(name: "Trellis", package: "Trellis")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
