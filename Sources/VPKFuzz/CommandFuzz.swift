// VPKFuzz: the command input path (LineSplitter → CommandParser, mpv's JSON requests, and the terminal line editor)
// under a fuzzer.
//
// Built by scripts/fuzz with `-sanitize=fuzzer,address -D VPK_FUZZ`: `main` then hands over to libFuzzer, which calls
// the checks with coverage-guided inputs. In an ordinary build (`swift build`) this is a small tool
// that runs the same checks on the files named on its command line (a crash input, a corpus), so a finding can be
// replayed without the fuzzer.
//
// Each input is checked for the reader's and the parser's documented promises: no trap; the same lines whatever the
// chunking of the bytes; no line holds a newline; a too-long line is longer than the limit; every error message is
// one line of bounded length (whatever the input); canonical commands parse back to themselves.

import Foundation
import VPKMPV
import VideoPlaybackKit

/// Runs every check on one input; a broken promise traps (which the fuzzer reports with the input).
func checkCommandInput(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let first = bytes.first else { return }
  // The first byte picks the line limit and the chunking, so both are fuzzed too.
  let limits = [65_536, 0, 1, 7, 64]
  let limit = limits[Int(first) % limits.count]
  let chunk = 1 + Int(first >> 3)
  let input = UnsafeBufferPointer(rebasing: bytes.dropFirst())

  var whole = LineSplitter(maxLineBytes: limit)
  let lines = whole.feed(input) + whole.finish()
  var pieces = LineSplitter(maxLineBytes: limit)
  var chunked: [InputLine] = []
  var start = input.startIndex
  while start < input.endIndex {
    let end = min(start + chunk, input.endIndex)
    chunked += pieces.feed(UnsafeBufferPointer(rebasing: input[start..<end]))
    start = end
  }
  chunked += pieces.finish()
  precondition(lines == chunked, "the lines depend on how the bytes were chunked")

  let parser = CommandParser()
  for line in lines {
    switch line {
    case .text(let text):
      precondition(!text.utf8.contains(UInt8(ascii: "\n")), "a line holds a newline")
      precondition(text.utf8.count <= limit, "a line longer than the limit came through")
      check(parser.parse(text), parser: parser)
      checkMPV(text)
    case .tooLong(let count):
      precondition(count > limit, "a line within the limit was called too long")
    case .invalidUTF8:
      break
    }
  }

  // The same bytes typed at a terminal.
  var editor = TerminalLineEditor(maxLineBytes: limit)
  for output in editor.feed(input) {
    if case .line(.text(let text)) = output { check(parser.parse(text), parser: parser) }
  }
}

/// A line read as mpv's JSON IPC (a socket client's): no trap, and a JSON value written back reads as the same value.
private func checkMPV(_ text: String) {
  _ = MPVCommandTranslator.isMPVRequest(text)
  _ = MPVCommandTranslator().translate(text)
  if let value = MPVValue.parse(text, maxDepth: 8) {
    precondition(MPVValue.parse(value.json, maxDepth: 8) == value, "\(value.json) does not read back as itself")
  }
}

private func check(_ parsed: ParsedLine, parser: CommandParser) {
  switch parsed {
  case .empty:
    break
  case .invalid(let error):
    precondition(!error.message.contains("\n") && !error.message.contains("\r"), "a message spans lines")
    // The parser promises about 200 characters, whatever the input; 240 holds that with a margin.
    precondition(error.message.count <= 240, "a message is longer than 240 characters: \(error.message.count)")
  case .command(let command):
    // The canonical spelling of what was understood means the same thing.
    if let canonical = canonicalText(command) {
      precondition(parser.parse(canonical) == .command(command), "'\(canonical)' does not parse back to \(command)")
    }
  }
}

/// The command written back in the language, or nil where a number has no short plain form (exponents, over 30
/// characters): the grammar takes neither.
private func canonicalText(_ command: Command) -> String? {
  func mode(_ mode: SeekMode?) -> String { mode.map { " \($0.rawValue)" } ?? "" }
  func plain(_ value: Double, sign: Bool = false) -> String? {
    let text = (sign && value.sign == .plus ? "+" : "") + value.description
    return text.contains("e") || text.count > 30 ? nil : text
  }
  switch command {
  case .scrub(.seconds(let seconds), let seekMode): return plain(seconds).map { "scrub \($0)\(mode(seekMode))" }
  case .scrub(.percent(let percent), let seekMode): return plain(percent).map { "scrub \($0)%\(mode(seekMode))" }
  case .skip(let seconds, let seekMode): return plain(seconds, sign: true).map { "skip \($0)\(mode(seekMode))" }
  case .play, .pause, .toggle, .status, .info, .frame, .help, .quit, .close: return command.verb
  default: return nil  // step, rate, open, wait, expect: their arguments have forms of their own
  }
}

/// Every word of the command language, from its one table of verbs: names, aliases, the synonyms it
/// answers with a suggestion, the seek modes, and the wait conditions.
let commandWords: [String] =
  CommandVerbs.all.flatMap { [$0.name] + $0.aliases } + CommandVerbs.synonyms.keys.sorted()
  + SeekMode.allCases.map(\.rawValue) + ["ended", "paused", "seeked", "position", "timeout"]
  + ExpectField.allCases.map(\.rawValue) + ExpectOperator.allCases.map(\.rawValue)

#if VPK_FUZZ
  /// libFuzzer's entry point for programs that have their own `main` (SwiftPM names an executable's main
  /// `VPKFuzz_main` and points `main` at it, so libFuzzer's own `main` is never linked).
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  /// The callback libFuzzer's own `main` looks for, when the linker takes that one.
  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    checkCommandInput(UnsafeBufferPointer(start: data, count: size))
    return 0
  }

  @_cdecl("VPKFuzz_main")
  func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { fuzzOneInput($0, $1) }
  }
#else
  @main
  struct VPKFuzzReplay {
    static func main() throws {
      let paths = CommandLine.arguments.dropFirst()
      if paths.first == "--dictionary" {
        // The fuzzer's dictionary (scripts/fuzz), one libFuzzer entry per line: every word the language knows.
        for word in commandWords { print("\"\(word)\"") }
        return
      }
      guard !paths.isEmpty else {
        print("usage: VPKFuzz FILE…   (runs the command-input checks on each file; scripts/fuzz runs the fuzzer)")
        print("       VPKFuzz --dictionary   (prints the command words for the fuzzer's dictionary)")
        return
      }
      for path in paths {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        data.withUnsafeBytes { checkCommandInput($0.bindMemory(to: UInt8.self)) }
      }
      print("VPKFuzz: \(paths.count) input(s) passed")
    }
  }
#endif
