// MPVStoredOptions: the values of the mpv properties vpk keeps without acting on them: the rows of MPVPropertyTable
// with a `stored` entry, which says each one's value at start and what it is kept as. Every mpv client of a session
// shares one set (MPVSharedOptions), so a value one client sets is what the others read and observe.

/// The stored values, from mpv 0.35's defaults.
package struct MPVStoredOptions: Sendable, Equatable {
  /// The values, by the property each is kept as (`MPVPropertySpec.Stored.key`).
  private var values: [MPVProperty: MPVValue]

  /// The stored properties, in the table's order.
  static let properties = MPVProperty.allCases.filter { $0.spec.stored != nil }

  /// Each value kept, at start.
  private static let initialValues: [MPVProperty: MPVValue] = Dictionary(
    uniqueKeysWithValues: properties.compactMap { property in
      property.spec.stored.flatMap { $0.key == property ? (property, $0.initial) : nil }
    })

  init() {
    values = Self.initialValues
  }

  /// The value kept as `key` (a stored property's `MPVPropertySpec.Stored.key`).
  subscript(key: MPVProperty) -> MPVValue? { values[key] }

  /// `property`'s stored value; nil when it is not a stored one.
  func value(of property: MPVProperty) -> MPVValue? {
    property.spec.stored.flatMap { values[$0.key] }
  }

  /// Stores `value` (as the property's entry accepted it) as `property`'s: a number or a flag as its kind says.
  mutating func store(_ value: MPVValue, as property: MPVProperty) {
    let spec = property.spec
    guard let key = spec.stored?.key else { return }
    switch spec.kind {
    case .number: values[key] = value.number.map { .number($0) } ?? values[key]
    case .flag: values[key] = .bool(value == .bool(true))
    case .integer, .text, .list: values[key] = value
    }
  }
}
