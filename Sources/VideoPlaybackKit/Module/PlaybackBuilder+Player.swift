// PlaybackBuilder+Player: the Builder's wiring for programs that embed playback. A `Player` is the session's primary
// view, as the standard output's view is `vpk play`'s:
//
//   Player ─onCommand─► Presenter ─submit─► FanOut.Port ─► Interactor ─► Router ─► makeManager
//   Player ◄─display…─ Presenter ◄─present…─ FanOut ◄─present…─ Interactor
//
// Player ─► fanOut (strong, for the player's life); the rest is held as `build` holds it. An app's own view is one
// view more on the same fan-out, as a control-socket client is (`attach(_:to:)`).

extension PlaybackBuilder {
  /// Options suited to a program driving playback: paused after `open` (nothing moves until `play`), paused at the
  /// end (the session goes on), no `progress` events unless asked, on the wall clock.
  public static var playerOptions: PlaybackOptions {
    PlaybackOptions(autoplay: false, progressInterval: nil, endAction: .pause)
  }

  /// Makes a player: an idle playback session whose primary view is the returned `Player`.
  /// - Parameters:
  ///   - options: the session's clock (`wall`, `free`, `virtual`), its end action, seek mode, progress interval, frame
  ///     cache; `autoplay` and `start` apply to every `open`.
  ///   - baseDirectory: the folder relative paths (`open`, `snapshot`) resolve against (nil: the working directory).
  ///   - makeManager: makes a playback manager for every `open` (the `VPKEngine` module's overload passes FFmpeg's).
  public static func makePlayer(
    options: PlaybackOptions = playerOptions, baseDirectory: String? = nil,
    makeManager: @escaping @MainActor () -> any PlaybackManager
  ) -> Player {
    let router = PlaybackRouter(makeManager: makeManager) { _, _ in }
    let interactor = PlaybackInteractor(path: nil, options: options, baseDirectory: baseDirectory, router: router)
    let fanOut = PlaybackFanOut(interactor: interactor)
    let presenter = PlaybackPresenter(interactor: fanOut.port(for: fanOut.primaryViewID), sharesSession: true)
    let player = Player(
      fanOut: fanOut,
      send: { [weak presenter] command, clientID in presenter?.onCommand(command, clientID: clientID) },
      leave: { [weak presenter] in presenter?.onOutputClosed() })
    // The back-references (see PlaybackBuilder.swift).
    presenter.view = player
    fanOut.attach(presenter, as: fanOut.primaryViewID)
    interactor.presenter = fanOut
    router.managerDelegate = interactor
    presenter.onStart()
    return player
  }

  /// Adds an app's own view to `player`'s session: it receives the view models of a presenter of its own (every shared
  /// event, and the answers to the commands it sends through the handle's `eventHandler`) until `detach()`. The
  /// handle holds the view; keep it as long as the view should show the session.
  public static func attach(_ view: any PlaybackView, to player: Player) -> PlaybackClient {
    let fanOut = player.fanOut
    let viewID = fanOut.makeViewID()
    let presenter = PlaybackPresenter(interactor: fanOut.port(for: viewID), sharesSession: true)
    presenter.view = view
    fanOut.attach(presenter, as: viewID)
    return PlaybackClient(viewID: viewID, view: view, presenter: presenter, fanOut: fanOut)
  }
}
