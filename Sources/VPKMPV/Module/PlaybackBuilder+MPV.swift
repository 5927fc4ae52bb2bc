// PlaybackBuilder+MPV: the Builder's wiring of a control-socket client that speaks mpv's JSON IPC: the mpv dialect's
// presenter and view, attached to the session's fan-out like any other client's.

import VideoPlaybackKit

extension PlaybackBuilder {
  /// Adds a client of the control socket that speaks mpv's JSON IPC: the mpv dialect's presenter and view, writing
  /// to `output` (no greeting: mpv sends none), its seeks as precise as `hrSeek` says. Used like `attachClient`'s
  /// handle.
  package static func attachMPVClient(
    to module: PlaybackModule, output: any TextOutput, hrSeek: MPVHRSeek = .default
  ) -> PlaybackClient {
    let fanOut = module.fanOut
    let viewID = fanOut.makeViewID()
    // The interactor's status board lets the presenter answer property reads on the client's own thread.
    let presenter = MPVPresenter(
      interactor: fanOut.port(for: viewID), clientName: "ipc_\(viewID.value)", viewID: viewID,
      statusBoard: module.statusBoard, startsPlaying: module.startsPlaying, hrSeek: hrSeek)
    let view = MPVLinesView(output: output, onClosed: { [weak presenter] in presenter?.onOutputClosed() })
    presenter.view = view
    fanOut.attach(presenter, as: viewID)
    // A client that only listens is told of the session's file too (its `end-file` names it).
    presenter.learnSessionFile()
    return PlaybackClient(
      viewID: viewID, view: view, presenter: presenter, fanOut: fanOut,
      finish: { [weak view] in view?.displayFinish() },
      owes: { [weak presenter] in presenter?.owesReplies ?? false },
      quickAnswer: { [quickReads = presenter.quickReads] in quickReads.answer($0) })
  }
}
