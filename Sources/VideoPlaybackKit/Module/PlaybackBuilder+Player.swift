// PlaybackBuilder+Player: the Builder's wiring for programs that embed playback. A `Player` is the session's primary
// view, as the standard output's view is `vpk play`'s:
//
//   Player ─submit(from:)─► FanOut.Port ─► Interactor ─► Router ─► makeManager
//   Player ◄─present(event)─ FanOut ◄─present(event)─ Interactor
//
// The Player is its own presenter: it reads the typed events. Player ─► fanOut (strong, for the player's life);
// fanOut ┄► Player (weak, through PlayerOutput); the rest is held as `build` holds it. An app's own view is one view more on the same fan-out, as a control-socket
// client is (`attach(_:to:)`).

extension PlaybackBuilder {
  /// Options suited to a program driving playback: paused after `open` (nothing moves until `play`), paused at the
  /// end (the session goes on), no `progress` events unless asked, on the wall clock.
  /// A value: read it from any isolation.
  public nonisolated static var playerOptions: PlaybackOptions {
    PlaybackOptions(autoplay: false, progressInterval: nil, endAction: .pause)
  }

  /// Makes a player: an idle playback session whose primary view is the returned `Player`. The session lives on the
  /// main actor; call this with `await` from any isolation (it runs there), and the `Player`'s calls likewise.
  /// - Parameters:
  ///   - options: the session's clock (`wall`, `free`, `virtual`), its end action, seek mode, progress interval, frame
  ///     cache; `autoplay` and `start` apply to every `open`.
  ///   - baseDirectory: the folder relative paths (`open`, `snapshot`) resolve against (nil: the working directory).
  ///   - makeManager: makes a playback manager for every `open` (the `VPKEngine` module's overload passes FFmpeg's).
  public static func makePlayer(
    options: PlaybackOptions = playerOptions, baseDirectory: String? = nil,
    makeManager: @escaping @MainActor () -> any PlaybackManager
  ) async -> Player {
    let router = PlaybackRouter(makeManager: makeManager) { _, _ in }
    let interactor = PlaybackInteractor(path: nil, options: options, baseDirectory: baseDirectory, router: router)
    let fanOut = PlaybackFanOut(interactor: interactor)
    let port = fanOut.port(for: fanOut.primaryViewID)
    let player = Player(fanOut: fanOut, port: port)
    // The back-references (see PlaybackBuilder.swift).
    fanOut.attach(PlayerOutput(player), as: fanOut.primaryViewID)
    interactor.presenter = fanOut
    router.managerEvents = { [weak interactor] event, manager in interactor?.handle(event, from: manager) }
    port.start()
    return player
  }

  /// Adds an app's own view to `player`'s session: it receives the view models of a presenter of its own (every shared
  /// event, and the answers to the commands it sends through the handle's `eventHandler`) until `detach()`. The
  /// handle holds the view; keep it as long as the view should show the session.
  public static func attach(_ view: any PlaybackView, to player: Player) -> PlaybackClient {
    let fanOut = player.fanOut
    let viewID = fanOut.makeViewID()
    let presenter = PlaybackPresenter(interactor: fanOut.port(for: viewID), viewID: viewID, sharesSession: true)
    presenter.view = view
    fanOut.attach(presenter, as: viewID)
    return PlaybackClient(viewID: viewID, view: view, presenter: presenter, fanOut: fanOut)
  }
}
