// Holds a signal that comes while libdispatch takes it over. vpk turns SIGINT, SIGTERM and SIGHUP into dispatch
// signal sources; libdispatch installs its own handler for them later, on its manager thread. A signal that came in
// between used to be ignored (the disposition had to be something other than the default action meanwhile, and it was
// SIG_IGN), and so was lost. Here the disposition meanwhile is a handler that only notes the signal; once libdispatch's
// handler has replaced it, vpk sends a noted signal again, and the source sees it.
#include "CVPKProcessSetup.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

// Lock-free atomics: safe in a signal handler, and read from another thread.
static atomic_int held[NSIG];

static void vpk_note_signal(int signo) {
  if (signo > 0 && signo < NSIG) atomic_store(&held[signo], 1);
}

void vpk_signal_hold(int signo) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = vpk_note_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(signo, &action, NULL);
}

int vpk_signal_is_held(int signo) {
  struct sigaction current;
  if (sigaction(signo, NULL, &current) != 0) return 0;
  return current.sa_handler == vpk_note_signal;
}

int vpk_signal_take_noted(int signo) {
  if (signo <= 0 || signo >= NSIG) return 0;
  return atomic_exchange(&held[signo], 0);
}
