// NumberText: how vpk writes numbers for people and for JSON: fixed decimals rounded half away from
// zero on the shortest decimal form, clock times, and whole numbers without a point. Every view,
// the presenter and the script runner write numbers through it, so they agree to the last digit.

/// Numbers as text, and the JSON numbers that match them.
package enum NumberText {
  /// What a time that cannot be shown reads as.
  package static let unknownClock = "--:--:--.---"

  /// Seconds with exactly three decimals: `12.345`, `60.000`, `-1.500`. Never `-0.000`.
  package static func seconds(_ value: Double) -> String {
    fixed(value, decimals: 3)
  }

  /// `HH:MM:SS.mmm`, hours growing past two digits when needed; `-` before negative times;
  /// `--:--:--.---` for times that are not finite (or too large to count in milliseconds).
  package static func clock(_ value: Double) -> String {
    guard value.isFinite else { return unknownClock }
    let digits = roundedDigits(value.magnitude, decimals: 3)
    guard digits.count <= 18, let total = Int(String(decoding: digits, as: UTF8.self)) else {
      return unknownClock
    }
    let milliseconds = total % 1000
    let seconds = total / 1000 % 60
    let minutes = total / 60_000 % 60
    let hours = total / 3_600_000
    let sign = value < 0 && total != 0 ? "-" : ""
    return sign + padded(hours, 2) + ":" + padded(minutes, 2) + ":" + padded(seconds, 2) + "."
      + padded(milliseconds, 3)
  }

  /// `value` rounded half away from zero to `decimals` places, written with exactly that many.
  /// Rounding works on the shortest decimal form of the number (what `print` shows), so
  /// `59.9995` rounds up to `60.000` although its binary value is a hair below. Non-finite
  /// values read `nan`, `inf`, `-inf`.
  package static func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
    var digits = roundedDigits(value.magnitude, decimals: decimals)
    let isZero = digits.allSatisfy { $0 == UInt8(ascii: "0") }
    if digits.count <= decimals {
      digits.insert(
        contentsOf: repeatElement(UInt8(ascii: "0"), count: decimals + 1 - digits.count), at: 0)
    }
    var text = String(decoding: digits.prefix(digits.count - decimals), as: UTF8.self)
    if decimals > 0 { text += "." + String(decoding: digits.suffix(decimals), as: UTF8.self) }
    return value < 0 && !isZero ? "-" + text : text
  }

  /// Like `fixed`, with trailing zeros (and a bare point) removed: `29.97`, `30`, `23.976`.
  package static func trimmed(_ value: Double, decimals: Int) -> String {
    let text = fixed(value, decimals: decimals)
    guard text.contains("."), value.isFinite else { return text }
    var result = Substring(text)
    while result.last == "0" { result.removeLast() }
    if result.last == "." { result.removeLast() }
    return String(result)
  }

  /// The number JSON should carry for a value shown with `decimals` places: the same rounding
  /// as the text, so `12.345000000001` becomes `12.345`. Non-finite values stay as they are.
  package static func rounded(_ value: Double, decimals: Int) -> Double {
    guard value.isFinite else { return value }
    return Double(fixed(value, decimals: decimals)) ?? value
  }

  /// The ASCII digits of `magnitude × 10^decimals`, rounded half away from zero, with no leading
  /// zeros (`"0"` for zero). Works on the shortest decimal form of `magnitude`.
  private static func roundedDigits(_ magnitude: Double, decimals: Int) -> [UInt8] {
    // The shortest form is `d.ddd`, `d.ddde±x` or `de±x`; read it as 0.DIGITS × 10^point.
    let text = magnitude.description
    let parts = text.split(separator: "e", maxSplits: 1)
    let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let integerPart = Array(mantissa[0].utf8)
    let fractionPart = mantissa.count > 1 ? Array(mantissa[1].utf8) : []
    let all = integerPart + fractionPart
    let point = integerPart.count + exponent
    let keep = point + decimals
    var kept: [UInt8]
    if keep < 0 {
      kept = []
    } else if keep >= all.count {
      kept = all + Array(repeating: UInt8(ascii: "0"), count: keep - all.count)
    } else {
      kept = Array(all[..<keep])
      if all[keep] >= UInt8(ascii: "5") {
        var index = kept.count - 1
        while index >= 0, kept[index] == UInt8(ascii: "9") {
          kept[index] = UInt8(ascii: "0")
          index -= 1
        }
        if index >= 0 { kept[index] += 1 } else { kept.insert(UInt8(ascii: "1"), at: 0) }
      }
    }
    let firstNonZero = kept.firstIndex { $0 != UInt8(ascii: "0") } ?? kept.endIndex
    let digits = Array(kept[firstNonZero...])
    return digits.isEmpty ? [UInt8(ascii: "0")] : digits
  }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }

  /// The value as an integer when it is a whole number small enough to be exact (`2`, `-7`), else nil:
  /// what the command language and the events write without a decimal point.
  package static func wholeNumber(_ value: Double) -> Int64? {
    value == value.rounded() && abs(value) < 1e15 ? Int64(value) : nil
  }
}
