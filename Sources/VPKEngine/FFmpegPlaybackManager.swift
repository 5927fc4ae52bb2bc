// Placeholder while the engine is written; replaced by the FFmpeg playback manager.
import CFFmpeg
import VideoPlaybackKit

public enum VPKEngineInfo {
  public static var libavformatVersion: UInt32 { avformat_version() }
}
