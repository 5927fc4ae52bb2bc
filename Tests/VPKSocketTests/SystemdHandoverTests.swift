// What vpk reads of systemd's variables: NOTIFY_SOCKET as it is, LISTEN_FDS only when LISTEN_PID names this process and
// it is a count above 0; more than one socket passed is refused with what to do. (`take()`, which reads and unsets the
// process's own variables, runs in the end-to-end SystemdTests, which set them for vpk: setenv in this process would
// race the other tests reading the environment.)

import Glibc
import Testing

@testable import VPKSocket

@Suite struct SystemdHandoverTests {
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

  @Test func noSocketPassedIsNoneAndMoreThanOneIsRefused() throws {
    #expect(try SystemdHandover().activatedSocket() == nil)
    let error = #expect(throws: ControlSocketError.self) { try SystemdHandover(listenDescriptors: 2).activatedSocket() }
    #expect(error?.description.contains("a single ListenStream=") == true)
  }
}
