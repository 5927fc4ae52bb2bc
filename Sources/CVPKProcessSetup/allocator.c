// Before main: blocks of 64 KiB and more (frame planes, packets) are mapped and unmapped on their own.
//
// glibc starts with the same threshold but raises it to the size of the largest mapped block freed so far, so once
// the first decoded frame is freed, frames come from the heap; a long session of scrubs then fragments the heap and
// RSS creeps up (~30 KB per scrub on 1080p H.264, scripts/bench's long run). Fixing the threshold keeps it flat.
// Decoding speed is the same either way (perf stat over a whole 1080p file); FFmpeg's frame pools reuse buffers,
// so few blocks are mapped per frame.
#include <malloc.h>

__attribute__((constructor)) static void vpk_map_large_blocks(void) {
    mallopt(M_MMAP_THRESHOLD, 64 * 1024);
}
