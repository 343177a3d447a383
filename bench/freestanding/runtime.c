/* A C library's few functions the benchmark harness calls, for Hexagon Linux
   under qemu-hexagon, which has no C library in the distribution: start-up,
   write, exit and clock_gettime by system call (trap0, number in r6), a bump
   allocator, the memory functions, qsort and a printf that knows %s, %d,
   %ld and %.Nf. Integer division is division.c's. */
#include <stdarg.h>
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "time.h"

enum { SYS_WRITE = 64, SYS_EXIT = 93, SYS_CLOCK_GETTIME = 113 };

static long sys3(long n, long a, long b, long c) {
  register long r0 __asm__("r0") = a, r1 __asm__("r1") = b, r2 __asm__("r2") = c, r6 __asm__("r6") = n;
  __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r6) : "memory");
  return r0;
}

int main(void);
__asm__(".text\n.globl _start\n_start:\n  r29 = and(r29, #-128)\n  call hydride_start\n");
__attribute__((used)) void hydride_start(void) {
  long code = main();
  for (;;) sys3(SYS_EXIT, code, 0, 0);
}

struct hydride_file { int fd; };
static FILE standard_error = {2};
FILE *stderr = &standard_error;

/* Every array of a kernel (the largest: a few 1920x1080 images of 32-bit elements). */
static unsigned char heap[256 << 20] __attribute__((aligned(128)));
static size_t used;
void *aligned_alloc(size_t alignment, size_t size) {
  size_t start = (used + alignment - 1) / alignment * alignment;
  if (start + size > sizeof heap) return 0;
  used = start + size;
  return heap + start;
}

void *memset(void *d, int v, size_t n) {
  for (size_t i = 0; i < n; ++i) ((unsigned char *)d)[i] = (unsigned char)v;
  return d;
}
void *memcpy(void *d, const void *s, size_t n) {
  for (size_t i = 0; i < n; ++i) ((unsigned char *)d)[i] = ((const unsigned char *)s)[i];
  return d;
}
int memcmp(const void *a, const void *b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    int d = ((const unsigned char *)a)[i] - ((const unsigned char *)b)[i];
    if (d) return d;
  }
  return 0;
}

void qsort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *)) {
  unsigned char *b = base, t;
  for (size_t i = 1; i < count; ++i) /* insertion sort: the harness sorts a few timings */
    for (size_t j = i; j > 0 && compare(b + (j - 1) * size, b + j * size) > 0; --j)
      for (size_t k = 0; k < size; ++k) t = b[(j - 1) * size + k], b[(j - 1) * size + k] = b[j * size + k], b[j * size + k] = t;
}

int clock_gettime(int clock, struct timespec *t) { return (int)sys3(SYS_CLOCK_GETTIME, clock, (long)t, 0); }

static char out[256];
static int out_len;
static void put(char c) { if (out_len < (int)sizeof out) out[out_len++] = c; }
static void put_unsigned(unsigned long long v) {
  char digits[24];
  int n = 0;
  do digits[n++] = (char)('0' + v % 10); while ((v /= 10) > 0);
  while (n) put(digits[--n]);
}
static void put_signed(long long v) {
  if (v < 0) put('-'), v = -v;
  put_unsigned((unsigned long long)v);
}
static int vprint(int fd, const char *f, va_list ap) {
  out_len = 0;
  for (; *f; ++f) {
    if (*f != '%') { put(*f); continue; }
    ++f;
    int precision = -1, is_long = 0;
    if (*f == '.') for (precision = 0, ++f; *f >= '0' && *f <= '9'; ++f) precision = precision * 10 + (*f - '0');
    while (*f == 'l') is_long = 1, ++f;
    if (*f == 'd') put_signed(is_long ? va_arg(ap, long) : va_arg(ap, int));
    else if (*f == 's') for (const char *s = va_arg(ap, const char *); *s; ++s) put(*s);
    else if (*f == 'f') { /* whole part, rounded (precision 0 is what the harness prints) */
      double v = va_arg(ap, double);
      put_signed((long long)(v < 0 ? v - 0.5 : v + 0.5));
    } else put(*f);
  }
  sys3(SYS_WRITE, fd, (long)out, out_len);
  return out_len;
}
int printf(const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vprint(1, format, ap);
  va_end(ap);
  return n;
}
int fprintf(FILE *stream, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vprint(stream->fd, format, ap);
  va_end(ap);
  return n;
}
