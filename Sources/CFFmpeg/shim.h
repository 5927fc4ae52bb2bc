// The parts of FFmpeg's headers that Swift cannot import directly (function-like and
// tagged macros), wrapped as static inline functions. Only VPKEngine imports this.
#ifndef VPK_CFFMPEG_SHIM_H
#define VPK_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/md5.h>
#include <libavutil/pixdesc.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libswscale/swscale.h>

static inline int vpk_averror_eof(void) { return AVERROR_EOF; }
static inline int vpk_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int vpk_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int64_t vpk_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational vpk_time_base_q(void) { return AV_TIME_BASE_Q; }

/// Writes FFmpeg's text for an error code into buf (of at least AV_ERROR_MAX_STRING_SIZE bytes).
static inline void vpk_error_string(int code, char *buf, size_t size) {
  av_strerror(code, buf, size);
}

#endif
