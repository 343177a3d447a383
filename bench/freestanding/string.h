/* The part of <string.h> the benchmark harness uses (bench/freestanding/runtime.c). */
#pragma once
typedef __SIZE_TYPE__ size_t;
void *memset(void *d, int v, size_t n);
void *memcpy(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
