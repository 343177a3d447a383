/* The part of <stdlib.h> the benchmark harness uses (bench/freestanding/runtime.c). */
#pragma once
typedef __SIZE_TYPE__ size_t;
void *aligned_alloc(size_t alignment, size_t size);
void qsort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *));
