// Runs each kernel compiled two ways, hydride's lowering and LLVM's own, on
// the same random and edge inputs and reports the inputs on which they
// differ. Freestanding (no libc), for AArch64 and Hexagon under qemu-user
// and for the x86-64 host: the only system calls are write and exit.
#include "differential.h"

#if defined(__aarch64__)
static long sys3(long n, long a, long b, long c) {
  register long x0 __asm__("x0") = a, x1 __asm__("x1") = b, x2 __asm__("x2") = c, x8 __asm__("x8") = n;
  __asm__ volatile("svc #0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x8) : "memory");
  return x0;
}
__asm__(".text\n.globl _start\n_start:\n  mov x29, #0\n  mov x30, #0\n  bl differential_main\n  mov x8, #93\n  svc #0\n");
#elif defined(__hexagon__)
static long sys3(long n, long a, long b, long c) {
  register long r0 __asm__("r0") = a, r1 __asm__("r1") = b, r2 __asm__("r2") = c, r6 __asm__("r6") = n;
  __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r6) : "memory");
  return r0;
}
__asm__(".text\n.globl _start\n_start:\n  r29 = and(r29, #-128)\n  call differential_start\n");
#elif defined(__x86_64__)
static long sys3(long n, long a, long b, long c) {
  long number = n == 64 ? 1 : n == 93 ? 60 : n; /* write and exit by x86-64's numbers */
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(number), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
}
__asm__(".text\n.globl _start\n_start:\n  xor %ebp, %ebp\n  and $-16, %rsp\n  call differential_start\n");
#else
#error "the differential harness runs on AArch64, Hexagon or x86-64"
#endif

enum { SYS_WRITE = 64, SYS_EXIT = 93, ROUNDS = 1000 };

// What the compiler may call in a freestanding program.
void *memcpy(void *d, const void *s, unsigned long n) {
  for (unsigned long i = 0; i < n; ++i) ((unsigned char *)d)[i] = ((const unsigned char *)s)[i];
  return d;
}
void *memset(void *d, int v, unsigned long n) {
  for (unsigned long i = 0; i < n; ++i) ((unsigned char *)d)[i] = (unsigned char)v;
  return d;
}

static void say(const char *s) {
  long n = 0;
  while (s[n]) ++n;
  sys3(SYS_WRITE, 1, (long)s, n);
}
static void say_int(long v) {
  char buf[24];
  int i = 23;
  buf[i] = 0;
  do buf[--i] = (char)('0' + v % 10); while ((v /= 10) > 0);
  say(buf + i);
}

static unsigned long long state = 0x2545f4914f6cdd1dull;
static unsigned char next_byte(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (unsigned char)(state >> 24);
}

// Random bytes, or (every fourth round) edge bytes 0x00 0xff 0x7f 0x80 in
// pairs, which make the edges of 16- and 32-bit elements too.
static void fill(unsigned char *b, int n, int round) {
  static const unsigned char edges[] = {0x00, 0xff, 0x7f, 0x80};
  for (int i = 0; i < n; ++i) b[i] = (round % 4 == 3) ? edges[(next_byte() + i / 2) % 4] : next_byte();
}

static unsigned char args[MAX_ARGS][MAX_BYTES] __attribute__((aligned(256)));
static unsigned char from_hydride[MAX_BYTES] __attribute__((aligned(256)));
static unsigned char from_llvm[MAX_BYTES] __attribute__((aligned(256)));

long differential_main(void) {
  void *pointers[MAX_ARGS];
  for (int a = 0; a < MAX_ARGS; ++a) pointers[a] = args[a];
  long failing = 0;
  for (int k = 0; k < N_KERNELS; ++k) {
    const struct kernel *kn = &KERNELS[k];
    long differ = 0;
    for (int round = 0; round < ROUNDS; ++round) {
      for (int a = 0; a < kn->args; ++a) fill(args[a], kn->arg_bytes[a], round);
      memset(from_hydride, 0, MAX_BYTES);
      memset(from_llvm, 0, MAX_BYTES);
      kn->hydride(pointers, from_hydride);
      kn->llvm(pointers, from_llvm);
      for (int i = 0; i < kn->result_bytes; ++i)
        if (from_hydride[i] != from_llvm[i]) { ++differ; break; }
    }
    if (differ) {
      ++failing;
      say("kernel ");
      say(kn->name);
      say(": ");
      say_int(differ);
      say(" inputs differ\n");
    }
  }
  if (failing == 0) {
    say("all ");
    say_int(N_KERNELS);
    say(" kernels agree on ");
    say_int(ROUNDS);
    say(" inputs each\n");
  }
  return failing != 0;
}

#if defined(__hexagon__) || defined(__x86_64__)
__attribute__((used)) void differential_start(void) {
  long code = differential_main();
  for (;;) sys3(SYS_EXIT, code, 0, 0);
}
#endif
