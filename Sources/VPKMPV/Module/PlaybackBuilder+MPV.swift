// PlaybackBuilder+MPV: the Builder's wiring of a control-socket client that speaks mpv's JSON IPC: the mpv dialect's
// presenter and view, attached to the session's fan-out like any other client's.

import VideoPlaybackKit

extension PlaybackBuilder {
  /// Adds a client of the control socket that speaks mpv's JSON IPC: the mpv dialect's presenter and view, writing
  /// to `output` (no greeting: mpv sends none). `clients`: what the session's mpv clients share (one per session).
  /// `hrSeek`: mpv's `--hr-seek`, which seeks that name no precision are exact.
  package static func attachMPVClient(
    to module: PlaybackModule, sharing clients: MPVClients, output: any TextOutput, hrSeek: MPVHRSeek = .default
  ) -> MPVClient {
    let fanOut = module.fanOut
    let viewID = fanOut.makeViewID()
    // The stored properties (`volume` …) are the session's: one set for all its mpv clients.
    let sharedOptions: MPVSharedOptions
    if let shared = clients.sharedOptions {
      sharedOptions = shared
    } else {
      // It hears the session's events itself, ahead of every mpv client's presenter (a file's own values come back
      // as it goes whoever is connected then).
      sharedOptions = MPVSharedOptions()
      // `loop-playlist` as the session's queue started (`--loop-playlist`).
      if module.loopsPlaylist { sharedOptions.store(.string("inf"), as: .loopPlaylist) }
      clients.sharedOptions = sharedOptions
      fanOut.attach(sharedOptions, as: fanOut.makeViewID())
    }
    // The interactor's status board lets the presenter answer property reads on the socket's event loop.
    let presenter = MPVPresenter(
      interactor: fanOut.port(for: viewID), clientName: sharedOptions.nextClientName(), viewID: viewID,
      statusBoard: module.statusBoard, startsPlaying: module.startsPlaying, hrSeek: hrSeek,
      sharedOptions: sharedOptions)
    let view = MPVLinesView(output: output, onClosed: { [weak presenter] in presenter?.onOutputClosed() })
    presenter.view = view
    fanOut.attach(presenter, as: viewID)
    // A client that only listens is told of the session's file too (its `end-file` names it).
    presenter.learnSessionFile()
    let client = PlaybackClient(
      viewID: viewID, view: view, presenter: presenter, fanOut: fanOut,
      finish: { [weak view] in view?.displayFinish() })
    return MPVClient(client: client, presenter: presenter)
  }
}

/// What a session's mpv clients share: the stored properties (`volume` …), made as the first one is attached. The
/// session's owner holds one per session and gives it to each `attachMPVClient`.
@MainActor
package final class MPVClients {
  fileprivate var sharedOptions: MPVSharedOptions?

  package init() {}
}

/// What `attachMPVClient` hands back: the client's place in the session (held for as long as it is connected), and
/// what its connection asks of the mpv dialect beyond any client's.
@MainActor
package final class MPVClient {
  private let client: PlaybackClient
  /// Held weakly: `client` holds the presenter.
  private weak var presenter: MPVPresenter?
  /// Answers the client's property reads and its seek's reply off the main actor (see MPVQuickReads).
  package nonisolated let quickReads: MPVQuickReads

  init(client: PlaybackClient, presenter: MPVPresenter) {
    self.client = client
    self.presenter = presenter
    quickReads = presenter.quickReads
  }

  /// Takes the client's next line.
  package func receive(_ line: InputLine) {
    client.eventHandler.onInputLine(line)
  }

  /// The lines that follow came together, in one read of the connection (true), or have all come (false): the
  /// events they cause follow all their replies, as mpv writes them.
  package func linesTogether(_ started: Bool) {
    if started { presenter?.linesTogetherStarted() } else { presenter?.linesTogetherEnded() }
  }

  /// Whether a request of the client's still owes it a reply.
  package var owesReplies: Bool { presenter?.owesReplies ?? false }

  /// Tells the client why it is being disconnected (mpv has no such event: an `error` with no request's id) and
  /// removes it.
  package func disconnect(_ reason: PlaybackError) {
    client.disconnect(reason)
  }

  /// The client left: what its requests still cause is dropped.
  package func detach() {
    client.detach()
  }
}
