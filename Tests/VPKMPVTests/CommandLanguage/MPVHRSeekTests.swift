import Testing

@testable import VPKMPV
@testable import VideoPlaybackKit

@Suite("mpv's --hr-seek: the precision of a seek")
struct MPVHRSeekTests {
  @Test("by default, absolute seeks are exact; the others go to a keyframe, the next one for a relative seek forward")
  func defaultPrecision() {
    let hrSeek = MPVHRSeek.default
    #expect(hrSeek.mode(for: .absolute, amount: 10, flag: nil) == .exact)
    #expect(hrSeek.mode(for: .absolutePercent, amount: 40, flag: nil) == .keyframe)
    #expect(hrSeek.mode(for: .relative, amount: 10, flag: nil) == .nextKeyframe)
    #expect(hrSeek.mode(for: .relative, amount: -10, flag: nil) == .keyframe)
    #expect(hrSeek.mode(for: .relative, amount: 0, flag: nil) == .keyframe)
    #expect(hrSeek.mode(for: .relativePercent, amount: 20, flag: nil) == .keyframe)
  }

  @Test("a seek's own flag wins over the option: +exact is exact, +keyframes a keyframe in the seek's direction")
  func flagsWin() {
    for hrSeek in MPVHRSeek.allCases {
      #expect(hrSeek.mode(for: .relative, amount: 10, flag: .exact) == .exact, "\(hrSeek)")
      #expect(hrSeek.mode(for: .absolutePercent, amount: 10, flag: .exact) == .exact, "\(hrSeek)")
      #expect(hrSeek.mode(for: .absolute, amount: 10, flag: .keyframe) == .keyframe, "\(hrSeek)")
      #expect(hrSeek.mode(for: .relative, amount: 10, flag: .keyframe) == .nextKeyframe, "\(hrSeek)")
      #expect(hrSeek.mode(for: .relative, amount: -10, flag: .keyframe) == .keyframe, "\(hrSeek)")
    }
  }

  @Test("yes makes every seek exact, no none, absolute as the default")
  func options() {
    #expect(MPVHRSeek.yes.mode(for: .relative, amount: 10, flag: nil) == .exact)
    #expect(MPVHRSeek.yes.mode(for: .absolutePercent, amount: 10, flag: nil) == .exact)
    #expect(MPVHRSeek.no.mode(for: .absolute, amount: 10, flag: nil) == .keyframe)
    #expect(MPVHRSeek.no.mode(for: .relative, amount: 10, flag: nil) == .nextKeyframe)
    #expect(MPVHRSeek.absolute.mode(for: .absolute, amount: 10, flag: nil) == .exact)
    #expect(MPVHRSeek.absolute.mode(for: .relativePercent, amount: 10, flag: nil) == .keyframe)
  }
}
