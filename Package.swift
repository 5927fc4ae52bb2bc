// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "VideoPlaybackKit",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "vpk", targets: ["vpk"]),
    // For programs that embed playback: the VIPER module alone (bring your own PlaybackManager), and the FFmpeg engine
    // with the Builder's `makePlayer()` that plays with it. Two products, so an app that brings its own engine does
    // not need FFmpeg's libraries to build.
    .library(name: "VideoPlaybackKit", targets: ["VideoPlaybackKit"]),
    .library(name: "VPKEngine", targets: ["VPKEngine"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // `swift package generate-documentation`: the libraries' DocC documentation (scripts/docs).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // FFmpeg's C libraries, found by pkg-config; a small shim header wraps the macros Swift cannot import.
    // libswscale converts frames to RGB for pictures (`snapshot`, `vpk thumbnails`).
    .systemLibrary(
      name: "CFFmpeg",
      pkgConfig: "libavformat libavcodec libavutil libswscale",
      providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "pkg-config"])]
    ),
    // The VIPER module: contract, entities, interactor, presenter, router, builder, views, input and the command
    // language. No FFmpeg, no scripts.
    .target(name: "VideoPlaybackKit"),
    // `vpk test`: runs playback test scripts as sessions of the module, and writes their summary and JUnit report.
    .target(name: "VPKScripts", dependencies: ["VideoPlaybackKit"]),
    // mpv's JSON IPC, a dialect of the control socket: its presenter, view, request translator, JSON values and
    // property table, and the Builder's `attachMPVClient`. Built on the module; no NIO.
    .target(name: "VPKMPV", dependencies: ["VideoPlaybackKit"]),
    // The FFmpeg-backed playback manager: the only code that imports CFFmpeg.
    .target(name: "VPKEngine", dependencies: ["CFFmpeg", "VideoPlaybackKit"]),
    // The control socket (`vpk play --socket`, `vpk attach`): SwiftNIO's Unix-domain sockets, each client a view of
    // the session, in vpk's dialect or in one the app gives (SocketDialect: mpv's, wired in `vpk`). The only code that
    // imports NIO.
    .target(
      name: "VPKSocket",
      dependencies: [
        "VideoPlaybackKit",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
      ]
    ),
    // Keeps descriptors 0, 1 and 2 open from before main, so no file opened later can land on them.
    .target(name: "CVPKProcessSetup"),
    // The command-line tool.
    .executableTarget(
      name: "vpk",
      dependencies: [
        "VideoPlaybackKit", "VPKEngine", "VPKMPV", "VPKScripts", "VPKSocket", "CVPKProcessSetup",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
      ]
    ),
    // The command input path under libFuzzer (scripts/fuzz builds it with -sanitize=fuzzer); in an ordinary build, a
    // tool that replays fuzz inputs through the same checks.
    .executableTarget(name: "VPKFuzz", dependencies: ["VideoPlaybackKit", "VPKMPV"]),
    // scripts/bench's floor for the observers figure: the same writes to many clients through SwiftNIO, with nothing
    // of vpk's around them.
    .executableTarget(
      name: "VPKWriteFloor",
      dependencies: [
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
      ]
    ),
    // Drives the engine through scrubs, a play to the end and open/close cycles for scripts/leaks (valgrind),
    // without dispatchMain, which valgrind 3.19 cannot run.
    .executableTarget(name: "VPKLeakCheck", dependencies: ["VPKEngine", "VideoPlaybackKit"]),
    // Test support: media made on demand with ffmpeg, ffmpeg/ffprobe reference answers, running the vpk executable,
    // and a fake playback manager for the module's and the script runner's tests.
    .target(name: "VPKTestSupport", dependencies: ["VideoPlaybackKit"], path: "Tests/VPKTestSupport"),
    .testTarget(name: "VideoPlaybackKitTests", dependencies: ["VideoPlaybackKit", "VPKTestSupport"]),
    .testTarget(name: "VPKMPVTests", dependencies: ["VPKMPV", "VideoPlaybackKit", "VPKTestSupport"]),
    .testTarget(name: "VPKScriptsTests", dependencies: ["VPKScripts", "VideoPlaybackKit", "VPKTestSupport"]),
    .testTarget(name: "VPKEngineTests", dependencies: ["VPKEngine", "VideoPlaybackKit", "VPKTestSupport"]),
    .testTarget(name: "VPKEndToEndTests", dependencies: ["VideoPlaybackKit", "VPKTestSupport"]),
    .testTarget(
      name: "VPKSocketTests",
      dependencies: [
        "VPKSocket", "VideoPlaybackKit", .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
