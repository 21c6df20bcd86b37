// swift-tools-version:6.0
import PackageDescription

// Layering (dependencies only point down):
//   wayfinder (executable) -> DemoApp, WayfinderServer
//   WayfinderServer -> WayfinderAPI -> WayfinderCore, WayfinderHTTP, WayfinderStore, COpenSSL (Debian: libssl-dev)
//   WayfinderHTTP -> CEpoll (C shim: epoll/eventfd, which Glibc does not export to Swift), CZlib (Debian: zlib1g-dev)
//   WayfinderStore -> WayfinderCore, CSQLite (Debian: libsqlite3-dev), CHiredis (Debian: libhiredis-dev)
//   WayfinderTesting (flow tests on the pure engine) -> WayfinderCore
//   WayfinderLiveTesting (tests against a running server) -> WayfinderCore, CCurlShim -> CCurl (Debian: libcurl4-openssl-dev)
//   wayfinder-terminal (executable) -> WayfinderClient -> Foundation only (URLSession; libcurl on Linux)
// No target uses unsafe flags: SwiftPM refuses them in a package depended on by version
// (scripts/check-by-version builds a consumer that does).

let package = Package(
    name: "Wayfinder",
    // iOS 17: WayfinderClient's navigation model is `@Observable`.
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "wayfinder", targets: ["wayfinder"]),
        .library(name: "WayfinderCore", targets: ["WayfinderCore"]),
        .library(name: "WayfinderServer", targets: ["WayfinderServer"]),
        .library(name: "WayfinderTesting", targets: ["WayfinderTesting"]),
        .library(name: "WayfinderLiveTesting", targets: ["WayfinderLiveTesting"]),
        .library(name: "WayfinderClient", targets: ["WayfinderClient"]),
        .executable(name: "wayfinder-terminal", targets: ["wayfinder-terminal"]),
    ],
    targets: [
        // MARK: C libraries and shims
        .target(name: "CEpoll", path: "Sources/CEpoll"),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            // No pkgConfig: hiredis.pc adds -D_FILE_OFFSET_BITS=64, which SwiftPM warns about on every
            // build; shim.h includes <hiredis/hiredis.h> from the default include path instead.
            name: "CHiredis", path: "Sources/CHiredis",
            providers: [.apt(["libhiredis-dev"])]),
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlShim", dependencies: ["CCurl"], path: "Sources/CCurlShim"),
        .systemLibrary(name: "CCrypt", path: "Sources/CCrypt", providers: [.apt(["libcrypt-dev"])]),
        // No pkgConfig: libcrypto alone is linked (module.modulemap), not libssl.
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", providers: [.apt(["libssl-dev"])]),
        // The gzip content coding of answers (no pkgConfig: libz alone is linked, module.modulemap).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),

        // MARK: The navigation engine (pure: no sockets, files or clocks)
        // `Double.rounded()` needs libm, which nothing else links into a program that uses only
        // this library and not Foundation.
        .target(name: "WayfinderCore", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // The sample app; its account service hashes passwords with libxcrypt.
        .target(name: "DemoApp", dependencies: ["WayfinderCore", "CCrypt"]),

        // MARK: IO shells
        .target(name: "WayfinderHTTP", dependencies: ["CEpoll", "CZlib"]),
        .target(name: "WayfinderStore", dependencies: ["CSQLite", "CHiredis"]),
        .target(
            name: "WayfinderAPI",
            dependencies: ["WayfinderCore", "WayfinderHTTP", "WayfinderStore", "COpenSSL"]),
        .target(
            name: "WayfinderServer",
            dependencies: ["WayfinderAPI", "WayfinderCore", "WayfinderHTTP", "WayfinderStore"]),
        .executableTarget(
            name: "wayfinder", dependencies: ["WayfinderServer", "DemoApp"],
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]),

        // MARK: Thin clients (Foundation only; they know no server target and no app)
        .target(name: "WayfinderClient"),
        .executableTarget(name: "wayfinder-terminal", dependencies: ["WayfinderClient"]),

        // MARK: The testing libraries: sessions on the pure engine; sessions of a live server through libcurl
        .target(name: "WayfinderTesting", dependencies: ["WayfinderCore"]),
        .target(name: "WayfinderLiveTesting", dependencies: ["WayfinderCore", "CCurlShim"]),

        // MARK: Benchmarks (Benchmarks/http-plaintext)
        .executableTarget(name: "PlaintextServer", dependencies: ["WayfinderHTTP"]),

        // MARK: Test fixtures: two versions of a small app, and a server of either (live upgrades)
        .target(name: "NotesApp", dependencies: ["WayfinderCore"], path: "Tests/Fixtures/NotesApp"),
        .executableTarget(name: "notes-server", dependencies: ["NotesApp", "WayfinderServer"], path: "Tests/Fixtures/NotesServer"),

        // MARK: Tests
        .testTarget(name: "WayfinderCoreTests", dependencies: ["WayfinderCore"]),
        .testTarget(name: "DemoAppTests", dependencies: ["DemoApp", "WayfinderCore", "WayfinderTesting"]),
        .testTarget(name: "UpgradeTests", dependencies: ["NotesApp", "WayfinderCore", "WayfinderTesting"]),
        .testTarget(name: "WayfinderHTTPTests", dependencies: ["WayfinderHTTP", "WayfinderLiveTesting"]),
        .testTarget(name: "WayfinderStoreTests", dependencies: ["WayfinderStore"]),
        // Unit tests of the API's internals; COpenSSL to make the keys and signatures they verify.
        .testTarget(name: "WayfinderAPITests", dependencies: ["WayfinderAPI", "WayfinderCore", "COpenSSL"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "WayfinderAPI", "WayfinderHTTP", "WayfinderStore", "WayfinderLiveTesting", "DemoApp", "WayfinderCore", "WayfinderServer",
                "NotesApp",
            ]),
        .testTarget(
            name: "WayfinderClientTests",
            dependencies: ["WayfinderClient", "WayfinderAPI", "WayfinderHTTP", "WayfinderStore", "DemoApp", "WayfinderCore"]),
    ]
)
