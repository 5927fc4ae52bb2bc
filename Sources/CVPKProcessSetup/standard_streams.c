// Makes sure standard input, output and error are open before anything else runs, so that no file the process
// opens later (the media file, an eventfd or pipe of the Swift runtime's) can land on descriptor 0, 1 or 2 and be
// written to as if it were the output. Runs as a constructor, before main and before the Swift runtime starts
// libdispatch, which opens descriptors of its own early.
//
// - A closed standard input reads as /dev/null: input has ended.
// - A closed standard output is a pipe with no reader: the first write fails with EPIPE (vpk ignores SIGPIPE), which
//   vpk handles as a reader that went away: it stops quietly with status 0.
// - A closed standard error is /dev/null: diagnostics are dropped.
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int is_closed(int fd) { return fcntl(fd, F_GETFD) == -1 && errno == EBADF; }

__attribute__((constructor)) static void vpk_keep_standard_streams_open(void) {
  int output_was_closed = is_closed(STDOUT_FILENO);
  // In order: open(2) takes the lowest free descriptor, so each fills the one that is missing.
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
    if (is_closed(fd)) {
      int opened = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
      if (opened >= 0 && opened != fd) {
        dup2(opened, fd);
        close(opened);
      }
    }
  }
  if (output_was_closed) {
    int ends[2];
    if (pipe(ends) == 0) {
      dup2(ends[1], STDOUT_FILENO);
      close(ends[0]);
      close(ends[1]);
    }
  }
}
