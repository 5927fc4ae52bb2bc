// PlaybackBuilder+Recorder: wires a session recorder (`vpk play --record`, a control-socket client's `record`) into a
// running module, as one view more on its fan-out. The recorder lives here, with the script language it writes.

import Foundation
import VideoPlaybackKit

extension PlaybackBuilder {
  /// Records `module`'s session as a playback test script written to `output` (`vpk play --record`): a recorder
  /// attached as a view of its own and as the fan-out's submission observer. Paths in the script are relative to
  /// `scriptDirectory` when they share a folder. `options` are the session's (autoplay, `--start`, `--seek`). Call
  /// before `start()`, so it sees the first file open.
  /// `unrecordedClientIDs`: the client ids of commands clients send for themselves (`vpk attach`'s markers).
  /// `joining`: the session is running (a control-socket client asked for the recording); the script starts where it
  /// is. Returns what stops the recording (it writes what it has and detaches); nil when the session is recorded
  /// already.
  @discardableResult
  package static func attachRecorder(
    to module: PlaybackModule, output: any TextOutput, scriptDirectory: String, options: PlaybackOptions,
    joining: Bool = false, unrecordedClientIDs: Set<String> = []
  ) -> (@MainActor () -> Void)? {
    let fanOut = module.fanOut
    guard fanOut.submissionObserver == nil else { return nil }
    let viewID = fanOut.makeViewID()
    let workingDirectory = FileManager.default.currentDirectoryPath
    let recorder = SessionRecorder(
      viewID: viewID, output: output, version: VideoPlaybackKitVersion.current,
      startsPlaying: options.autoplay, seekMode: options.seekMode,
      unrecordedClientIDs: unrecordedClientIDs,
      startingList: joining ? nil : options.playlist.flatMap { $0.isList ? $0.entries.map(\.path) : nil },
      startingListLoops: options.playlist?.loops ?? false,
      scriptPath: {
        RecordedScriptText.mediaPath($0, workingDirectory: workingDirectory, scriptDirectory: scriptDirectory)
      },
      fileSize: { path in
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
      }, rateNow: { [statusBoard = module.statusBoard] in statusBoard.rateNow() })
    recorder.interactor = fanOut.port(for: viewID)
    fanOut.attach(recorder, as: viewID)
    fanOut.submissionObserver = recorder
    if joining { recorder.join() }
    return { [weak fanOut] in
      recorder.finish()
      fanOut?.detach(viewID)
      if fanOut?.submissionObserver === recorder { fanOut?.submissionObserver = nil }
    }
  }
}
