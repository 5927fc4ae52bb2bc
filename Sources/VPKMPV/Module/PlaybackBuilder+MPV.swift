// PlaybackBuilder+MPV: the Builder's wiring of a control-socket client that speaks mpv's JSON IPC: the mpv dialect's
// presenter and view, attached to the session's fan-out like any other client's.

import VideoPlaybackKit

extension PlaybackBuilder {
  /// Adds a client of the control socket that speaks mpv's JSON IPC: the mpv dialect's presenter and view, writing
  /// to `output` (no greeting: mpv sends none). Used like `attachClient`'s handle. `hrSeek`: mpv's `--hr-seek`, which
  /// seeks that name no precision are exact.
  package static func attachMPVClient(
    to module: PlaybackModule, output: any TextOutput, hrSeek: MPVHRSeek = .default
  ) -> PlaybackClient {
    let fanOut = module.fanOut
    let viewID = fanOut.makeViewID()
    // The interactor's status board lets the presenter answer property reads on the client's own thread.
    // The stored properties (`volume` …) are the session's: one set for all its mpv clients.
    let key = ObjectIdentifier(MPVSharedOptions.self)
    let sharedOptions: MPVSharedOptions
    if let shared = module.sharedByClients[key] as? MPVSharedOptions {
      sharedOptions = shared
    } else {
      // It hears the session's events itself, ahead of every mpv client's presenter (a file's own values come back
      // as it goes whoever is connected then).
      sharedOptions = MPVSharedOptions()
      module.sharedByClients[key] = sharedOptions
      fanOut.attach(sharedOptions, as: fanOut.makeViewID())
    }
    let presenter = MPVPresenter(
      interactor: fanOut.port(for: viewID), clientName: sharedOptions.nextClientName(), viewID: viewID,
      statusBoard: module.statusBoard, startsPlaying: module.startsPlaying, hrSeek: hrSeek,
      sharedOptions: sharedOptions)
    let view = MPVLinesView(output: output, onClosed: { [weak presenter] in presenter?.onOutputClosed() })
    presenter.view = view
    fanOut.attach(presenter, as: viewID)
    // A client that only listens is told of the session's file too (its `end-file` names it).
    presenter.learnSessionFile()
    return PlaybackClient(
      viewID: viewID, view: view, presenter: presenter, fanOut: fanOut,
      finish: { [weak view] in view?.displayFinish() },
      owes: { [weak presenter] in presenter?.owesReplies ?? false },
      quickAnswer: { [quickReads = presenter.quickReads] in quickReads.quickAnswer($0) },
      linesTogether: { [weak presenter] started in
        if started { presenter?.linesTogetherStarted() } else { presenter?.linesTogetherEnded() }
      })
  }
}
