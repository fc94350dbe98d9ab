// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "Canopy",
    // macOS 15: swift-configuration's APIs are available from it.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CanopyCore", targets: ["CanopyCore"]),
        .library(name: "CanopyProtocol", targets: ["CanopyProtocol"]),
        .library(name: "CanopyViews", targets: ["CanopyViews"]),
        .library(name: "CanopyClient", targets: ["CanopyClient"]),
        .library(name: "CanopyServer", targets: ["CanopyServer"]),
        .executable(name: "canopyd", targets: ["canopyd"]),
        .executable(name: "canopy", targets: ["canopy"]),
        .executable(name: "canopy-bench", targets: ["canopy-bench"]),
        .executable(name: "canopy-redis-load", targets: ["canopy-redis-load"]),
        .executable(name: "canopy-difftest", targets: ["canopy-difftest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        // canopyd's settings: flags, CANOPY_* environment variables, config/canopyd.yaml, defaults, in one reader.
        .package(url: "https://github.com/apple/swift-configuration", exact: "1.4.0", traits: ["YAML"]),
        // Already needed by swift-configuration's YAML trait; read directly to check keys and report lines.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // The Swift parser behind CanopyScript; 603 is the release that matches the Swift 6.3 toolchain.
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
    ],
    targets: [
        // Pure Swift: JSON value, tree, ops, key catalog, evaluator, trace, diff. No C, no I/O, no threads.
        // libm: Double rounding (Int64(exactly:)) links against it, and no Foundation/Glibc import pulls it in.
        .target(name: "CanopyCore", swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
        // Pure Swift: Foundation's English grammar agreement (`^[…](inflect: true)`, `agreeWithArgument`) applied to
        // the literal of `AttributedString(localized:)`, as one function from its segments to its characters.
        .target(name: "CanopyInflection", swiftSettings: strict),
        // Pure Swift on swift-syntax: the Swift subset of PROGRAMS.md compiled to resolved slots and run in a sandbox;
        // custom PreferenceKeys plug into CanopyCore's reducer hook.
        .target(
            name: "CanopyScript",
            dependencies: [
                "CanopyCore", "CanopyInflection", .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftOperators", package: "swift-syntax"),
            ],
            // The interpreter's hot paths mutate the machine's stack through a class; its accesses never overlap
            // (places move values out before modifying), so the run-time exclusivity checks are pure cost.
            // Release builds compile it file by file: whole-module optimization of the interpreter took over 15 minutes
            // on two cores (SIL ARC code motion), file by file it takes a few.
            swiftSettings: strict + [
                .unsafeFlags(["-enforce-exclusivity=unchecked"]),
                .unsafeFlags(["-no-whole-module-optimization"], .when(configuration: .release)),
            ]),
        // Pure Swift: program trees (PROGRAMS.md) — view instances, @State cells, bindings, environment, preview
        // contexts, events, transactions and their layout — on CanopyScript's interpreter and CanopyLayout; implements
        // CanopyCore's ProgramRuntime.
        .target(name: "CanopyViews", dependencies: ["CanopyCore", "CanopyScript", "CanopyLayout"], swiftSettings: strict),
        // Pure Swift: SwiftUI's layout rules (LAYOUT.md §3) on a keyed, incremental tree; the versioned text model.
        .target(name: "CanopyLayout", swiftSettings: strict),
        // Pure Swift: the protocol of PROTOCOL.md as a state machine (sessions, tree channels, actions out). No I/O.
        .target(name: "CanopyProtocol", dependencies: ["CanopyCore"], swiftSettings: strict),
        // C libraries, each a modulemap and one shim header, each imported by exactly one Swift module.
        .systemLibrary(name: "CLibWebSockets", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CNATS", pkgConfig: "libnats", providers: [.apt(["libnats-dev"])]),
        // Small pieces the edge modules share: a lock, the monotonic clock, small files, Prometheus text.
        .target(name: "CanopySupport", swiftSettings: strict),
        // The WebSocket transport on libwebsockets (the only importer of CLibWebSockets): the server's ServiceLoop
        // (sessions, HTTP checks, routes it is given) and the client's ClientLoop.
        .target(
            name: "CanopyWebSocket",
            dependencies: [
                "CLibWebSockets", "CanopyCore", "CanopySupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // The durable store on SQLite (the only importer of CSQLite): snapshots and diff log, group commit.
        .target(name: "CanopyStore", dependencies: ["CSQLite", "CanopySupport"], swiftSettings: strict),
        // Cluster mode's engine layer on the NATS C client (the only importer of CNATS): connections, JetStream streams
        // with fenced and deduplicated publishes, ordered reads of a subject, key-value leases, request/reply.
        .target(name: "CanopyNATS", dependencies: ["CNATS"], swiftSettings: strict),
        // A client library for Swift apps: one blocking connection to canopyd (BlockingClient).
        .target(name: "CanopyClient", dependencies: ["CanopyWebSocket", "CanopyCore"], swiftSettings: strict),
        // The daemon's library: the builder, configuration, HTTP routes, and the runner of the protocol machine
        // between the transport and the store.
        .target(
            name: "CanopyServer",
            dependencies: [
                "CanopyCore", "CanopyProtocol", "CanopySupport", "CanopyWebSocket", "CanopyStore", "CanopyNATS",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"), .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict),
        // The daemon: flags, example loading, signals. Thin: everything else is in CanopyServer.
        .executableTarget(
            name: "canopyd",
            dependencies: [
                "CanopyServer", "CanopyCore", "CanopyScript", "CanopyViews",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // The load generator behind `canopy load`: many client connections on one ClientLoop, open- or closed-loop
        // edits, latencies in HdrHistograms. A library so its tests can run it against an in-process daemon.
        .target(
            name: "CanopyLoad",
            dependencies: [
                "CanopyClient", "CanopyWebSocket", "CanopySupport", "CanopyCore",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strict),
        // The CLI client: ls, create, import, run, event, watch, edit, probe, history, load. CanopyScript: it compiles
        // .swift key files itself, to find the keys they declare and report their errors before anything is sent.
        .executableTarget(
            name: "canopy",
            dependencies: [
                "CanopyClient", "CanopyCore", "CanopyLoad", "CanopyScript",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // The Redis pub/sub anchor of the load tests (scripts/anchor-redis.py): the same open-loop fan-out as
        // `canopy load`, measured with its histograms. Load tooling, so not a subcommand of the user CLI.
        .executableTarget(
            name: "canopy-redis-load",
            dependencies: [
                "CanopyLoad", "CanopySupport", "CanopyCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // Engine benchmarks: build, per-edit incremental cost, from-scratch cost, memory per node; program trees.
        .executableTarget(
            name: "canopy-bench", dependencies: ["CanopyCore", "CanopyScript", "CanopyViews"], swiftSettings: strict),
        // The CanopyScript side of the differential test against swiftc (docs/differential.md): runs the corpus of
        // Tests/Differential and compares with the outputs scripts/difftest.py recorded from swiftc's builds.
        .executableTarget(name: "canopy-difftest", dependencies: ["CanopyScript", "CanopyCore"], swiftSettings: strict),
        // CanopyScript only for the differential run of the catalog as real Swift keys; CanopyCore stays dependency-free.
        .testTarget(name: "CanopyCoreTests", dependencies: ["CanopyCore", "CanopyScript"], swiftSettings: strict),
        .testTarget(name: "CanopyScriptTests", dependencies: ["CanopyScript", "CanopyCore"], swiftSettings: strict),
        .testTarget(name: "CanopyInflectionTests", dependencies: ["CanopyInflection"], swiftSettings: strict),
        .testTarget(name: "CanopyViewsTests", dependencies: ["CanopyViews", "CanopyCore"], swiftSettings: strict),
        .testTarget(name: "CanopyLayoutTests", dependencies: ["CanopyLayout"], swiftSettings: strict),
        .testTarget(name: "CanopyProtocolTests", dependencies: ["CanopyProtocol", "CanopyCore"], swiftSettings: strict),
        // What tests that start child processes share (see ChildProcesses).
        .target(name: "CanopyTestSupport", path: "Tests/CanopyTestSupport", swiftSettings: strict),
        .testTarget(
            name: "CanopyServerTests",
            dependencies: [
                "CanopyServer", "CanopyWebSocket", "CanopyStore", "CanopySupport", "CanopyClient", "CanopyCore",
                "CanopyScript", "CanopyViews", "CanopyNATS", "CanopyTestSupport", .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict),
        // Against a real 3-server JetStream cluster on loopback that each test starts (nats-server from setup.sh --test).
        .testTarget(name: "CanopyNATSTests", dependencies: ["CanopyNATS", "CanopyTestSupport"], swiftSettings: strict),
        // The CLI's argument parsing, the messages it builds and its output, from canned daemon messages.
        .testTarget(name: "CanopyCLITests", dependencies: ["canopy", "CanopyCore"], swiftSettings: strict),
        .testTarget(
            name: "CanopyLoadTests",
            dependencies: [
                "CanopyLoad", "CanopyServer", "CanopyWebSocket", "CanopySupport", "CanopyCore", "CanopyViews",
            ],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
