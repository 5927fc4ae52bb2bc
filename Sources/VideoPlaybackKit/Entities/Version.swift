// The version vpk reports.

/// vpk's version, as `--version` and the JSON `hello` report it.
package enum VideoPlaybackKitVersion {
  package static let current = "0.1.0"
}
