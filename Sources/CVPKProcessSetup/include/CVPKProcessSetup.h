// Process set-up for vpk. standard_streams.c and allocator.c run by themselves before main; signal_hold.c is called
// while signals are handed over to libdispatch.
#ifndef CVPK_PROCESS_SETUP_H
#define CVPK_PROCESS_SETUP_H

/// Sets `signo`'s disposition to a handler that only notes that the signal came (instead of ignoring it).
void vpk_signal_hold(int signo);
/// 1 while `signo`'s handler is still the one `vpk_signal_hold` set (libdispatch has not yet installed its own).
int vpk_signal_is_held(int signo);
/// 1 if `signo` came while held, and forgets it.
int vpk_signal_take_noted(int signo);

/// Raises `signo` with its default action (for SIGTSTP: the process stops here until SIGCONT), then puts its handler
/// back as it was.
void vpk_stop_by_default(int signo);

#endif
