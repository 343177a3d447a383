/* The part of <stdio.h> the benchmark harness uses, for targets without a C
   library (bench/freestanding/runtime.c). */
#pragma once
typedef struct hydride_file FILE;
extern FILE *stderr;
int printf(const char *format, ...);
int fprintf(FILE *stream, const char *format, ...);
