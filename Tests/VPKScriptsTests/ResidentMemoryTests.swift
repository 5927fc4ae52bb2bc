import Testing

@testable import VPKScripts

@MainActor
@Suite struct ResidentMemoryTests {
  @Test func statmsSecondFieldIsResidentPages() {
    // Given /proc/self/statm lines, When read, Then the resident pages times the page size
    #expect(ResidentMemory.residentBytes(statm: "1000 250 30 4 0 80 0\n", pageSize: 4096) == 250 * 4096)
    #expect(ResidentMemory.residentBytes(statm: "1000\n", pageSize: 4096) == nil)
    #expect(ResidentMemory.residentBytes(statm: "", pageSize: 4096) == nil)
  }

  @Test func theProcessHasAResidentSizeAndThePeakKeepsTheLargest() throws {
    // Given this process, When its resident size is read, Then it is above zero
    let now = try #require(ResidentMemory.current())
    #expect(now > 0)
    // and a peak sampled twice is at least the first reading
    let peak = ResidentPeak()
    peak.sample()
    let first = try #require(peak.bytes)
    peak.sample()
    #expect(try #require(peak.bytes) >= first)
  }
}
