// MPVSharedOptions: the stored mpv properties (MPVStoredOptions) of one session, shared by all its mpv clients'
// presenters. A value one client sets is handed to every presenter, which tells its observers.

@MainActor
package final class MPVSharedOptions {
  private(set) var values = MPVStoredOptions()
  private struct Listener {
    weak var presenter: MPVPresenter?
  }
  private var listeners: [Listener] = []

  package init() {}

  /// `presenter` is handed every change from now on.
  func add(_ presenter: MPVPresenter) {
    listeners.removeAll { $0.presenter == nil }
    listeners.append(Listener(presenter: presenter))
  }

  /// Stores `value` as `property`'s and hands the values to every presenter.
  func store(_ value: MPVValue, as property: MPVProperty) {
    values.store(value, as: property)
    for listener in listeners { listener.presenter?.storedOptionsChanged(values) }
  }
}
