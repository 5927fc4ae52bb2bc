// PlaybackRouter: where the session goes when it leaves. It hands the exit status to the app
// that owns the module (the `vpk` command), which decides what leaving the process means.

@MainActor
public final class PlaybackRouter: PlaybackRouting {
  private let onClose: @MainActor (Int32) -> Void
  private var closed = false

  public init(onClose: @escaping @MainActor (Int32) -> Void) {
    self.onClose = onClose
  }

  public func closeSession(exitCode: Int32) {
    guard !closed else { return }
    closed = true
    onClose(exitCode)
  }
}
