// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The PostgreSQL benchmarks compare TrellisPostgres with raw postgres-nio
// and Fluent, on one server, in one process. They are a package of their
// own so that Trellis never depends on Fluent, and so that the SQLite
// benchmarks do not build SwiftNIO.

// The identity of a path dependency is the name of its folder, which
// depends on where the repository is cloned.
let trellisPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "TrellisPostgresBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Fluent's object-relational mapper (FluentKit) and its PostgreSQL
        // driver; the `fluent` package itself only adds Vapor's glue.
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", exact: "2.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "TrellisPostgresBenchmarks",
            dependencies: [
                .product(name: "Trellis", package: trellisPackage),
                .product(name: "TrellisMacros", package: trellisPackage),
                .product(name: "TrellisPostgres", package: trellisPackage),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
