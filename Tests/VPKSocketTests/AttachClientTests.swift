// What `vpk attach` reads in the daemon's lines: the greeting, its own end marker's reply, the shutdown's reason.

import Testing

@testable import VPKSocket

@Suite struct AttachClientTests {
  @Test func recognisesTheGreeting() {
    #expect(AttachClient.isHello(#"{"event":"hello","protocol":2,"version":"0.1.0","capabilities":[]}"#))
    #expect(!AttachClient.isHello("hello"))
    #expect(!AttachClient.isHello(#"{"event":"ready"}"#))
  }

  @Test func recognisesTheReplyToItsEndMarkerInBothFormats() {
    #expect(AttachClient.isEndMarkerReply(#"{"event":"status","id":"vpk-attach-end","seq":3}"#, json: true))
    #expect(AttachClient.isEndMarkerReply("status #vpk-attach-end state=idle position=0.000", json: false))
    #expect(!AttachClient.isEndMarkerReply("status #3 state=idle position=0.000", json: false))
  }

  @Test func readsTheShutdownReasonInBothFormats() {
    #expect(AttachClient.shutdownReason(in: "shutdown #2 reason=quit state=paused", json: false) == "quit")
    #expect(
      AttachClient.shutdownReason(in: #"shutdown reason="input ended" state=paused"#, json: false) == "input ended")
    #expect(
      AttachClient.shutdownReason(in: #"{"event":"shutdown","reason":"SIGTERM","state":"idle"}"#, json: true)
        == "SIGTERM")
    #expect(AttachClient.shutdownReason(in: "status #1 state=paused", json: false) == nil)
  }

  @Test func leavesWithTheDaemonsStatusForItsReason() {
    #expect(AttachClient.exitStatus(forShutdownReason: "quit") == 0)
    #expect(AttachClient.exitStatus(forShutdownReason: "ended") == 0)
    #expect(AttachClient.exitStatus(forShutdownReason: "open failed") == 3)
    #expect(AttachClient.exitStatus(forShutdownReason: "SIGINT") == 130)
    #expect(AttachClient.exitStatus(forShutdownReason: "SIGTERM") == 143)
    #expect(AttachClient.exitStatus(forShutdownReason: "SIGHUP") == 129)
  }
}
