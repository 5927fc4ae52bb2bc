// Names the calling thread for the kernel (`top -H`, /proc/PID/task/*/comm): Glibc's Swift module does not offer
// pthread_setname_np, which needs _GNU_SOURCE.
#ifndef CVPK_THREAD_NAME_H
#define CVPK_THREAD_NAME_H

/// Names the calling thread `name`, cut to the kernel's 15 bytes.
void vpk_name_thread(const char *name);

#endif
