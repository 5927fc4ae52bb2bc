import Testing
import VPKEngine

@Test func engineLinksAgainstFFmpeg() {
  #expect(VPKEngineInfo.libavformatVersion > 0)
}
