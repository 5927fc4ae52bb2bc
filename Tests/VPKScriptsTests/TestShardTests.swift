// TestShard: reading a shard from --shard and from a test runner's variables, and the partition it makes.

import Testing
import VPKTestSupport

@testable import VPKScripts

@Suite struct TestShardTests {
  @Test func everyScriptIsInExactlyOneShardWhateverTheOrderGiven() throws {
    // Given lists of scripts (with a duplicate) in random orders
    var random = SplitMix64(seed: 14)
    for size in [0, 1, 2, 5, 13, 40] {
      let paths = (0..<size).map { "checks/\($0 % 11)/s\($0).vpk" } + (size > 3 ? ["checks/0/s0.vpk"] : [])
      for count in 1...7 {
        // When each shard of `count` selects from the list, and from the list in another order
        var seen = [Int](repeating: 0, count: paths.count)
        var chosenPaths: [[String]] = []
        for index in 0..<count {
          let shard = try TestShard(index: index, count: count)
          let chosen = shard.selection(of: paths)
          for position in chosen { seen[position] += 1 }
          // (positions come back in the order given)
          #expect(chosen == chosen.sorted())
          chosenPaths.append(chosen.map { paths[$0] })
          // Then the partition does not depend on the order the scripts were given in
          let shuffled = paths.shuffled(using: &random)
          #expect(shard.selection(of: shuffled).map { shuffled[$0] }.sorted() == chosenPaths[index].sorted())
        }
        // Then every script is in exactly one shard, and shards differ in size by at most one
        #expect(seen.allSatisfy { $0 == 1 }, "\(size) scripts, \(count) shards")
        let sizes = chosenPaths.map(\.count)
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
      }
    }
  }

  @Test(arguments: [("1/1", 0, 1), ("2/4", 1, 4), ("4/4", 3, 4), ("10/12", 9, 12)])
  func theFlagCountsFromOne(text: String, index: Int, count: Int) throws {
    #expect(try TestShard.parse(text) == TestShard(index: index, count: count))
    #expect(try TestShard.parse(text).description == text)
  }

  @Test(arguments: [
    ("0/4", "shard 0 does not exist: there are 4 shards, 1 to 4"), ("5/4", "shard 5 does not exist"),
    ("1/0", "the shard count must be a whole number from 1 to 100000, not 0"), ("1", "--shard takes K/N"),
    ("a/b", "--shard takes K/N"), ("1/2/3", "--shard takes K/N"), ("+1/2", "--shard takes K/N"),
    (" 1/2", "--shard takes K/N"), ("1/9999999999", "--shard takes K/N"),
  ])
  func aFlagThatNamesNoShardIsRefused(text: String, words: String) {
    #expect {
      try TestShard.parse(text)
    } throws: { error in
      (error as? TestShard.Problem)?.description.contains(words) == true
    }
  }

  @Test func theTestRunnersVariablesCountFromZero() throws {
    #expect(try TestShard.fromEnvironment([:]) == nil)
    #expect(try TestShard.fromEnvironment(["TEST_TOTAL_SHARDS": ""]) == nil)
    #expect(
      try TestShard.fromEnvironment(["TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "0"])
        == TestShard(index: 0, count: 3))
    #expect(
      try TestShard.fromEnvironment(["TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "2"])?.description == "3/3")
  }

  @Test(arguments: [
    (["TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "3"], "shard 4 does not exist"),
    (["TEST_TOTAL_SHARDS": "3"], "TEST_TOTAL_SHARDS=3 is set without TEST_SHARD_INDEX"),
    (["TEST_SHARD_INDEX": "1"], "TEST_SHARD_INDEX=1 is set without TEST_TOTAL_SHARDS"),
    (["TEST_TOTAL_SHARDS": "-1", "TEST_SHARD_INDEX": "0"], "TEST_TOTAL_SHARDS must be a whole number"),
    (["TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "x"], "TEST_SHARD_INDEX must be a whole number"),
  ])
  func variablesThatNameNoShardAreRefused(environment: [String: String], words: String) {
    #expect {
      try TestShard.fromEnvironment(environment)
    } throws: { error in
      (error as? TestShard.Problem)?.description.contains(words) == true
    }
  }
}
