// Stops the process as a job-control signal's default action does, from inside that signal's handling: vpk catches
// SIGTSTP to put the terminal and playback in order first, then stops by the default action, so the shell sees the
// process stopped by SIGTSTP, as for any ^Z.
#include "CVPKProcessSetup.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>

void vpk_stop_by_default(int signo) {
  struct sigaction fallback, previous;
  memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  if (sigaction(signo, &fallback, &previous) != 0) return;
  sigset_t only, saved;
  sigemptyset(&only);
  sigaddset(&only, signo);
  pthread_sigmask(SIG_UNBLOCK, &only, &saved);
  raise(signo);  // the process stops here, and goes on once continued
  pthread_sigmask(SIG_SETMASK, &saved, NULL);
  sigaction(signo, &previous, NULL);
}
