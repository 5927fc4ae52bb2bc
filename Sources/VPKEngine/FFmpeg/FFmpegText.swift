// FFmpegText: FFmpeg's names and messages as Swift strings, and how much FFmpeg itself says.

import CFFmpeg

/// FFmpeg's text for an error code.
func ffmpegErrorText(_ code: Int32) -> String {
  var buffer = [CChar](repeating: 0, count: Int(AV_ERROR_MAX_STRING_SIZE) + 1)
  buffer.withUnsafeMutableBufferPointer { vpk_error_string(code, $0.baseAddress, $0.count) }
  return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

func pixelFormatName(_ format: Int32) -> String {
  guard let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: format)) else { return "unknown" }
  return String(cString: name)
}

/// Lets FFmpeg write its own warnings and errors to standard error, or only fatal ones.
func setFFmpegLogLevel(showsWarnings: Bool) {
  av_log_set_level(showsWarnings ? AV_LOG_WARNING : AV_LOG_FATAL)
}
