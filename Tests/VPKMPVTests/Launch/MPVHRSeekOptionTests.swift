import Testing
import VPKTestSupport

@testable import VPKMPV
@testable import VideoPlaybackKit

@Suite("--hr-seek in the mpv dialect's presenter")
@MainActor
struct MPVHRSeekOptionTests {
  /// The command an mpv client's `seek` line becomes, with the presenter made for `hrSeek`.
  private func submitted(_ line: String, hrSeek: MPVHRSeek) -> InteractorSpy.Call? {
    let interactor = InteractorSpy()
    let presenter = MPVPresenter(interactor: interactor, clientName: "ipc_1", viewID: .primary, hrSeek: hrSeek)
    let view = MPVViewSpy()
    presenter.view = view
    presenter.onInputLine(.text(line))
    return interactor.calls.last
  }

  @Test("default and absolute: absolute seeks exact, relative ones to keyframes (the next one, forward)")
  func defaultPrecision() {
    for hrSeek in [MPVHRSeek.default, .absolute] {
      #expect(submitted("seek 2 absolute", hrSeek: hrSeek) == .submit(.scrub(.seconds(2), .exact)))
      #expect(submitted("seek 2", hrSeek: hrSeek) == .submit(.skip(2, .nextKeyframe)))
      #expect(submitted("seek -2", hrSeek: hrSeek) == .submit(.skip(-2, .keyframe)))
    }
  }

  @Test("yes and always: every seek that names no precision is exact; no: every one to a keyframe")
  func forcedPrecision() {
    for hrSeek in [MPVHRSeek.yes, .always] {
      #expect(submitted("seek 2", hrSeek: hrSeek) == .submit(.skip(2, .exact)))
      #expect(submitted("seek 50 absolute-percent", hrSeek: hrSeek) == .submit(.scrub(.percent(50), .exact)))
    }
    #expect(submitted("seek 2 absolute", hrSeek: .no) == .submit(.scrub(.seconds(2), .keyframe)))
    #expect(submitted("seek -2", hrSeek: .no) == .submit(.skip(-2, .keyframe)))
  }

  @Test("a seek that names its precision keeps it, whatever --hr-seek says")
  func namedPrecision() {
    #expect(submitted("seek 2 absolute+exact", hrSeek: .no) == .submit(.scrub(.seconds(2), .exact)))
    #expect(submitted("seek 2 relative+keyframes", hrSeek: .yes) == .submit(.skip(2, .nextKeyframe)))
  }
}
