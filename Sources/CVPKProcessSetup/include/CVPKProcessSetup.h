// Nothing to call: the functions here run by themselves before main (see standard_streams.c and allocator.c).
#ifndef CVPK_PROCESS_SETUP_H
#define CVPK_PROCESS_SETUP_H
#endif
