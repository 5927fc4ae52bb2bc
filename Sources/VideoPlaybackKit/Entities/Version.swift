// The version vpk reports.

/// vpk's version, as `--version` and the JSON `hello` report it.
public enum VideoPlaybackKitVersion {
  public static let current = "0.1.0"
}
