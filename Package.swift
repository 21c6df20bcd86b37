// swift-tools-version:6.0
import PackageDescription

// Layering (dependencies only point down):
//   wayfinder (executable) -> DemoApp, WayfinderServer
//   WayfinderServer -> WayfinderAPI -> WayfinderCore, WayfinderHTTP, WayfinderStore
//   WayfinderHTTP -> CEpoll (C shim: epoll/eventfd, which Glibc does not export to Swift)
//   WayfinderStore -> WayfinderCore, CSQLite (Debian: libsqlite3-dev), CHiredis (Debian: libhiredis-dev)
//   WayfinderTesting (tests only) -> CCurlShim -> CCurl (Debian: libcurl4-openssl-dev)
//   wayfinder-terminal (executable) -> WayfinderClient -> Foundation only (URLSession; libcurl on Linux)
// The server's targets (not the WayfinderCore library product) leave out the run-time
// exclusivity checks in release builds: about 8 % of a GET's instructions went to
// `swift_beginAccess` on the connections' and caches' class properties. Debug builds, which
// every test runs, keep the checks.
let serverSettings: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "Wayfinder",
    // iOS 17: WayfinderClient's navigation model is `@Observable`.
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "wayfinder", targets: ["wayfinder"]),
        .library(name: "WayfinderCore", targets: ["WayfinderCore"]),
        .library(name: "WayfinderServer", targets: ["WayfinderServer"]),
        .library(name: "WayfinderTesting", targets: ["WayfinderTesting"]),
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

        // MARK: The navigation engine (pure: no sockets, files or clocks)
        .target(name: "WayfinderCore"),
        // The sample app; its account service hashes passwords with libxcrypt.
        .target(name: "DemoApp", dependencies: ["WayfinderCore", "CCrypt"]),

        // MARK: IO shells
        .target(name: "WayfinderHTTP", dependencies: ["CEpoll"], swiftSettings: serverSettings),
        .target(name: "WayfinderStore", dependencies: ["CSQLite", "CHiredis"], swiftSettings: serverSettings),
        .target(
            name: "WayfinderAPI",
            dependencies: ["WayfinderCore", "WayfinderHTTP", "WayfinderStore"],
            swiftSettings: serverSettings),
        .target(
            name: "WayfinderServer",
            dependencies: ["WayfinderAPI", "WayfinderCore", "WayfinderHTTP", "WayfinderStore"]),
        .executableTarget(
            name: "wayfinder", dependencies: ["WayfinderServer", "DemoApp"],
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]),

        // MARK: Thin clients (Foundation only; they know no server target and no app)
        .target(name: "WayfinderClient"),
        .executableTarget(name: "wayfinder-terminal", dependencies: ["WayfinderClient"]),

        // MARK: The testing library: sessions on the pure engine, and a real libcurl client
        .target(name: "WayfinderTesting", dependencies: ["WayfinderCore", "CCurlShim"]),

        // MARK: Benchmarks (Benchmarks/http-plaintext)
        .executableTarget(name: "PlaintextServer", dependencies: ["WayfinderHTTP"]),

        // MARK: Test fixtures: two versions of a small app, and a server of either (live upgrades)
        .target(name: "NotesApp", dependencies: ["WayfinderCore"], path: "Tests/Fixtures/NotesApp"),
        .executableTarget(name: "notes-server", dependencies: ["NotesApp", "WayfinderServer"], path: "Tests/Fixtures/NotesServer"),

        // MARK: Tests
        .testTarget(name: "WayfinderCoreTests", dependencies: ["WayfinderCore"]),
        .testTarget(name: "DemoAppTests", dependencies: ["DemoApp", "WayfinderCore", "WayfinderTesting"]),
        .testTarget(name: "UpgradeTests", dependencies: ["NotesApp", "WayfinderCore", "WayfinderTesting"]),
        .testTarget(name: "WayfinderHTTPTests", dependencies: ["WayfinderHTTP", "WayfinderTesting"]),
        .testTarget(name: "WayfinderStoreTests", dependencies: ["WayfinderStore"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "WayfinderAPI", "WayfinderHTTP", "WayfinderStore", "WayfinderTesting", "DemoApp", "WayfinderCore", "WayfinderServer",
                "NotesApp",
            ]),
        .testTarget(
            name: "WayfinderClientTests",
            dependencies: ["WayfinderClient", "WayfinderAPI", "WayfinderHTTP", "WayfinderStore", "DemoApp", "WayfinderCore"]),
    ]
)
