// swift-tools-version: 6.0
// How a package of yours uses VideoPlaybackKit: it depends on the checkout (here by path; by URL and version the same
// way) and on its two library products. scripts/test builds and tests this package from a clean .build.
import PackageDescription

let package = Package(
  name: "VPKExamples",
  platforms: [.macOS(.v13)],
  dependencies: [
    // The parent folder is a checkout of VideoPlaybackKit. From GitHub it would be:
    // .package(url: "https://github.com/OWNER/VideoPlaybackKit", from: "0.1.0")
    .package(name: "VideoPlaybackKit", path: "..")
  ],
  targets: [
    // A tiny command-line program that plays a file with a view of its own.
    .executableTarget(
      name: "PlayerDemo",
      dependencies: [
        .product(name: "VideoPlaybackKit", package: "VideoPlaybackKit"),
        .product(name: "VPKEngine", package: "VideoPlaybackKit"),
      ]
    ),
    // Playback checks written with Swift Testing, as an app's own tests would be.
    .testTarget(
      name: "PlaybackChecksTests",
      dependencies: [
        .product(name: "VideoPlaybackKit", package: "VideoPlaybackKit"),
        .product(name: "VPKEngine", package: "VideoPlaybackKit"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
