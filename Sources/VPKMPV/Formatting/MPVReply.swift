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
}
