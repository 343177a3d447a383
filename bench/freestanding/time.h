/* The part of <time.h> the benchmark harness uses (bench/freestanding/runtime.c). */
#pragma once
struct timespec { long tv_sec; long tv_nsec; };
#define CLOCK_MONOTONIC 1
int clock_gettime(int clock, struct timespec *t);
