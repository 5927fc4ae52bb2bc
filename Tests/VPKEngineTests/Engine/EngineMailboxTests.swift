// EngineMailbox on its own: messages in order, put back in front, and what ends a running seek.

import Testing
import VideoPlaybackKit

@testable import VPKEngine

@Suite struct EngineMailboxTests {
  private func seek(_ id: Int) -> EngineMailbox.Message {
    .seek(SeekRequest(id: id, target: MediaTime(seconds: 1), mode: .exact), requestedAt: 0)
  }

  @Test func messagesPutBackComeBeforeThosePostedSince() {
    // Given a mailbox holding play and pause, taken out
    var mailbox = EngineMailbox()
    mailbox.post(.play(continuingFrom: nil))
    mailbox.post(.pause)
    let taken = mailbox.takeAll()
    // When a rate is posted and the pause is put back
    mailbox.post(.rate(2))
    mailbox.putBack(taken.dropFirst())
    // Then the pause comes first, and the mailbox is empty after
    let order = mailbox.takeAll().map { message -> String in
      switch message {
      case .pause: "pause"
      case .rate: "rate"
      default: "other"
      }
    }
    #expect(taken.count == 2)
    #expect(order == ["pause", "rate"])
    #expect(mailbox.isEmpty)
  }

  @Test func theNewestSeekInterruptsAndAShutdownWins() {
    // Given a mailbox with two seeks among other messages
    var mailbox = EngineMailbox()
    #expect(mailbox.interruption() == .none)
    mailbox.post(seek(1))
    mailbox.post(.play(continuingFrom: nil))
    mailbox.post(seek(2))
    mailbox.post(.pause)
    // Then the newest seek interrupts, and stays in the mailbox
    #expect(mailbox.interruption() == .newerSeek(2))
    #expect(!mailbox.isEmpty)
    // When a shutdown follows, it wins over the seeks
    mailbox.post(.shutdown)
    #expect(mailbox.interruption() == .shutdown)
  }
}
