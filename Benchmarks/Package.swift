// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The benchmarks compare Trellis with raw SQLite and GRDB in one process.
// They are a package of their own so that Trellis never depends on GRDB.

// The identity of a path dependency is the name of its folder, which
// depends on where the repository is cloned.
let trellisPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "TrellisBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .systemLibrary(name: "BenchSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "TrellisBenchmarks",
            dependencies: [
                "BenchSQLite",
                .product(name: "Trellis", package: trellisPackage),
                .product(name: "TrellisObjects", package: trellisPackage),
                .product(name: "TrellisMacros", package: trellisPackage),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
