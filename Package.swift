// swift-tools-version: 6.1
import CompilerPluginSupport
import Foundation
import PackageDescription

let package = Package(
    name: "Trellis",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Trellis", targets: ["Trellis"]),
        .library(name: "TrellisObjects", targets: ["TrellisObjects"]),
        // The record macros, in a product of their own: a user of Trellis
        // alone does not build swift-syntax.
        .library(name: "TrellisMacros", targets: ["TrellisMacros"]),
        .executable(name: "trellis", targets: ["TrellisCLI"]),
    ],
    dependencies: [
        // The command line parser of the `trellis` command only.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The compiler plugin of the record and entity macros only.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"700.0.0"),
        // `swift package generate-documentation`: builds the DocC catalogs (CI checks them).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The property-based tests of quoted names only.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "TrellisSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "Trellis",
            dependencies: ["TrellisSQLite"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The macros' expansions, in a library that their tests link:
        // a test target that depended on the `.macro` target itself would
        // make SwiftPM build every test, and all they depend on (SwiftNIO
        // and BoringSSL included), a second time for the host.
        .target(
            name: "TrellisMacrosPluginCore",
            dependencies: [
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The compiler plugin: the entry point that hands the expansions
        // to the compiler.
        .macro(
            name: "TrellisMacrosPlugin",
            dependencies: [
                "TrellisMacrosPluginCore",
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "TrellisMacros",
            dependencies: ["Trellis", "TrellisMacrosPlugin"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The `@Entity` macro comes with the object store, as ObjectBox's
        // generator does: TrellisObjects builds swift-syntax, Trellis not.
        .target(
            name: "TrellisObjects",
            dependencies: ["Trellis", "TrellisMacrosPlugin"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "TrellisCLICore",
            dependencies: ["Trellis", "TrellisObjects"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "TrellisCLI",
            dependencies: [
                "TrellisCLICore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "TrellisCLITests",
            dependencies: ["TrellisCLICore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "TrellisMacrosPluginTests",
            dependencies: [
                "TrellisMacrosPluginCore",
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "TrellisMacrosTests",
            dependencies: ["TrellisMacros"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "TrellisObjectsTests",
            dependencies: ["TrellisObjects", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "TrellisTests",
            dependencies: [
                "Trellis", "TrellisSQLite", "TrellisCrashWriter",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The process that the crash-consistency tests kill.
        .executableTarget(
            name: "TrellisCrashWriter",
            dependencies: ["Trellis"],
            path: "Tests/TrellisCrashWriter",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)

// Trellis on PostgreSQL, in a product of its own: a user of Trellis alone
// does not build SwiftNIO. `TRELLIS_SKIP_POSTGRES=1` leaves it out of a
// build, for work on the SQLite layers: SwiftNIO and BoringSSL cost
// minutes to build, and postgres-nio need not be fetched at all.
if ProcessInfo.processInfo.environment["TRELLIS_SKIP_POSTGRES"] == nil {
    package.products.append(.library(name: "TrellisPostgres", targets: ["TrellisPostgres"]))
    // The PostgreSQL driver, which pools connections.
    package.dependencies.append(.package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"))
    package.targets += [
        .target(
            name: "TrellisPostgres",
            dependencies: [
                "Trellis",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "TrellisPostgresTests",
            dependencies: ["TrellisPostgres", "TrellisMacros"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
}
