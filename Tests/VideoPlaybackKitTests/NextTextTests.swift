import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

@MainActor
@Suite("Next in words")
struct NextTextTests {
  @Test(arguments: [(false, "playing"), (true, "paused")])
  func aNextSaysInWordsThatNothingIsLoadedToAPerson(paused: Bool, start: String) {
    // Given a presenter whose lines a person reads at a terminal
    let view = ViewSpy()
    let presenter = PlaybackPresenter(interactor: InteractorSpy(), viewID: .primary, wordsForAPerson: true)
    presenter.view = view
    // When a toggle with nothing loaded is answered with `next`
    presenter.present(.next(paused: paused), origin: nil)
    // Then the line keeps its fields and says what it means
    #expect(
      view.texts == [
        "next paused=\(paused) (nothing is loaded: open a file with open <path>; it will start \(start))"
      ])
  }

  @Test func aNextStaysItsFieldsForAProgram() {
    // Given a presenter whose lines a program reads
    let view = ViewSpy()
    let presenter = PlaybackPresenter(interactor: InteractorSpy(), viewID: .primary)
    presenter.view = view
    // When a `next` is presented
    presenter.present(.next(paused: false), origin: nil)
    // Then it is the line of fields alone
    #expect(view.texts == ["next paused=false"])
  }
}
