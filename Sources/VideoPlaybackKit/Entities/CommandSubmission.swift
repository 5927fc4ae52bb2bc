// CommandSubmission: one command (or invalid line) a view submits, as a submission observer sees it.

/// A command a view submits: the command (nil for a line that is not one, with its error), its line as written and
/// its sender.
package struct CommandSubmission: Sendable, Equatable {
  package var view: ViewID
  package var command: Command?
  /// Why the line is not a command (nil for a command).
  package var error: PlaybackError?
  package var source: SourceLine?
  package var sender: CommandSender?

  package init(view: ViewID, command: Command, source: SourceLine?, sender: CommandSender?) {
    self.view = view
    self.command = command
    self.source = source
    self.sender = sender
  }

  package init(view: ViewID, invalid error: PlaybackError, source: SourceLine?, sender: CommandSender?) {
    self.view = view
    self.error = error
    self.source = source
    self.sender = sender
  }
}
