// TestShard: which of a suite's scripts one machine runs when a suite is spread over several. The partition is
// round-robin over the scripts sorted by path, so it does not depend on the order the scripts were named in (a shell's
// glob, a runner's list), every shard gets a share within one script of the others, and the shards of one suite
// cover every script exactly once.
//
// The shard comes from `--shard K/N` (K counted from 1, as people count) or from the variables test runners such as
// Bazel set: TEST_TOTAL_SHARDS and TEST_SHARD_INDEX (counted from 0). A runner that sets TEST_SHARD_STATUS_FILE
// learns that the sharding was honoured when the file is touched.

import Foundation

package struct TestShard: Sendable, Equatable, CustomStringConvertible {
  /// Counted from 0.
  package let index: Int
  package let count: Int

  /// The most shards a suite is spread over.
  package static let maxCount = 100_000

  /// Why a shard could not be read; `description` is the message a person reads.
  package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
  }

  package init(index: Int, count: Int) throws {
    guard (1...Self.maxCount).contains(count) else {
      throw Problem(description: "the shard count must be a whole number from 1 to \(Self.maxCount), not \(count)")
    }
    guard (0..<count).contains(index) else {
      throw Problem(description: "shard \(index + 1) does not exist: there are \(count) shards, 1 to \(count)")
    }
    self.index = index
    self.count = count
  }

  /// `K/N` as `--shard` takes it: shard K (from 1) of N.
  package static func parse(_ text: String) throws -> TestShard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let number = wholeNumber(parts[0]), let count = wholeNumber(parts[1]) else {
      throw Problem(description: "--shard takes K/N, shard K of N counted from 1 (such as 1/4), not '\(text)'")
    }
    return try TestShard(index: number - 1, count: count)
  }

  /// The shard a test runner asks for with TEST_TOTAL_SHARDS and TEST_SHARD_INDEX (from 0); nil when it asks for none.
  package static func fromEnvironment(_ environment: [String: String]) throws -> TestShard? {
    let total = environment["TEST_TOTAL_SHARDS"].flatMap { $0.isEmpty ? nil : $0 }
    let index = environment["TEST_SHARD_INDEX"].flatMap { $0.isEmpty ? nil : $0 }
    guard let total else {
      if let index { throw Problem(description: "TEST_SHARD_INDEX=\(index) is set without TEST_TOTAL_SHARDS") }
      return nil
    }
    guard let count = wholeNumber(Substring(total)) else {
      throw Problem(description: "TEST_TOTAL_SHARDS must be a whole number from 1 to \(maxCount), not '\(total)'")
    }
    guard let index else { throw Problem(description: "TEST_TOTAL_SHARDS=\(total) is set without TEST_SHARD_INDEX") }
    guard let number = wholeNumber(Substring(index)) else {
      throw Problem(description: "TEST_SHARD_INDEX must be a whole number from 0, not '\(index)'")
    }
    return try TestShard(index: number, count: count)
  }

  /// The positions in `paths` of the scripts this shard runs, in the order given: every `count`-th script of the
  /// list sorted by path (byte order), starting at `index`.
  package func selection(of paths: [String]) -> [Int] {
    let sorted = paths.indices.sorted { a, b in
      let (x, y) = (Array(paths[a].utf8), Array(paths[b].utf8))
      return x == y ? a < b : x.lexicographicallyPrecedes(y)
    }
    let chosen = sorted.enumerated().filter { $0.offset % count == index }.map(\.element)
    return chosen.sorted()
  }

  /// `2/4`: shard 2 of 4, counted from 1.
  package var description: String { "\(index + 1)/\(count)" }

  private static func wholeNumber(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int(text)
  }
}
