// MPVReply: the shape of mpv's reply to a request.

import VideoPlaybackKit

extension MPVValue {
  /// mpv's reply: `{"data": …, "request_id": N, "error": "success"}`, `data` only when given.
  static func reply(_ requestID: MPVValue, _ error: MPVError, data: MPVValue? = nil) -> MPVValue {
    var members: [MPVMember] = []
    if let data { members.append(MPVMember("data", data)) }
    members.append(MPVMember("request_id", requestID))
    members.append(MPVMember("error", .string(error.rawValue)))
    return .object(members)
  }

  /// mpv's reply to an input command sent with `"async": true` once it has run: `{"request_id": N, "error": …,
  /// "data": …}`, `data` always there (null when the command gives none, or failed).
  static func asyncReply(_ requestID: MPVValue, _ error: MPVError, data: MPVValue? = nil) -> MPVValue {
    .object([
      MPVMember("request_id", requestID), MPVMember("error", .string(error.rawValue)),
      MPVMember("data", error == .success ? data ?? .null : .null),
    ])
  }
}
