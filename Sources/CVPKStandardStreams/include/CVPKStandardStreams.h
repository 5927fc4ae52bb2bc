// Nothing to call: the one function here runs by itself before main (see standard_streams.c).
#ifndef CVPK_STANDARD_STREAMS_H
#define CVPK_STANDARD_STREAMS_H
#endif
