// What vpk reads of systemd's variables: NOTIFY_SOCKET as it is, LISTEN_FDS only when LISTEN_PID names this process and
// it is a count above 0; the variables are unset once read; more than one socket passed is refused with what to do.

import Glibc
import Testing

@testable import VPKSocket

@Suite(.serialized) struct SystemdHandoverTests {
  @Test func readsTheNotifySocketAsItIs() {
    #expect(
      SystemdHandover.parse(["NOTIFY_SOCKET": "/run/systemd/notify"], pid: 7).notifySocket == "/run/systemd/notify")
    #expect(SystemdHandover.parse(["NOTIFY_SOCKET": "@vpk-notify"], pid: 7).notifySocket == "@vpk-notify")
    #expect(SystemdHandover.parse(["NOTIFY_SOCKET": ""], pid: 7).notifySocket == nil)
    #expect(SystemdHandover.parse([:], pid: 7) == SystemdHandover())
  }

  @Test func countsTheListeningSocketsOnlyForThisProcess() {
    #expect(SystemdHandover.parse(["LISTEN_FDS": "1", "LISTEN_PID": "7"], pid: 7).listenDescriptors == 1)
    #expect(SystemdHandover.parse(["LISTEN_FDS": "2", "LISTEN_PID": "7"], pid: 7).listenDescriptors == 2)
    // Left for another process, or without its pid
    #expect(SystemdHandover.parse(["LISTEN_FDS": "1", "LISTEN_PID": "8"], pid: 7).listenDescriptors == nil)
    #expect(SystemdHandover.parse(["LISTEN_FDS": "1"], pid: 7).listenDescriptors == nil)
    // Not a count above 0
    for bad in ["0", "-1", "x", "", "1.5"] {
      #expect(SystemdHandover.parse(["LISTEN_FDS": bad, "LISTEN_PID": "7"], pid: 7).listenDescriptors == nil, "\(bad)")
    }
    #expect(SystemdHandover.parse(["LISTEN_FDS": "1", "LISTEN_PID": "seven"], pid: 7).listenDescriptors == nil)
  }

  @Test func takeReadsTheVariablesOfThisProcessAndUnsetsThem() {
    // Given systemd's variables in this process's environment, LISTEN_PID naming it
    setenv("NOTIFY_SOCKET", "@vpk-handover-test", 1)
    setenv("LISTEN_FDS", "1", 1)
    setenv("LISTEN_PID", "\(getpid())", 1)
    setenv("LISTEN_FDNAMES", "vpk.socket", 1)
    // When they are taken
    let handover = SystemdHandover.take()
    // Then they are read, and gone from the environment
    #expect(handover == SystemdHandover(notifySocket: "@vpk-handover-test", listenDescriptors: 1))
    for name in SystemdHandover.variables { #expect(getenv(name) == nil, "\(name)") }
  }

  @Test func noSocketPassedIsNoneAndMoreThanOneIsRefused() throws {
    #expect(try SystemdHandover().activatedSocket() == nil)
    let error = #expect(throws: ControlSocketError.self) { try SystemdHandover(listenDescriptors: 2).activatedSocket() }
    #expect(error?.description.contains("a single ListenStream=") == true)
  }
}
