/* The qemu-hexagon test runtime hydride's HVX harness generates programs
   around: freestanding (no libc), system calls by trap0, stdin/stdout
   buffered.

   stdin : "HVXI" u32 n_entries u32 n_cases, then for each entry, for each case:
           the operands in order, little-endian: vector 128 bytes, pair 256,
           predicate 128 (byte nonzero: bit set), int 4, long long 8.
           Immediates are compiled into the entry.
   stdout: "HVXR" u32 1 u32 n_entries u32 n_cases, u32 out_bytes[n_entries],
           then for each entry, for each case, its result bytes (a predicate
           as 128 bytes of 0x00/0xFF), then "DONE". Output is flushed after
           each entry. */

typedef int HVX_Vector __attribute__((vector_size(128)));
typedef int HVX_VectorPair __attribute__((vector_size(256)));
typedef _Bool HVX_Q __attribute__((ext_vector_type(128)));   /* clang's _Vector<128,bool> */

/* Q <-> vector-of-bytes conversions (same as clang's hvx_hexagon_protos.h) */
#define V2Q(v) __builtin_HEXAGON_V6_vandvrt_128B((v), -1)   /* byte!=0 -> bit set */
#define Q2V(q) __builtin_HEXAGON_V6_vandqrt_128B((q), -1)   /* bit -> 0xFF / 0x00 */

asm(".text\n.globl _start\n.type _start,@function\n_start:\n"
    "  r0 = r29\n"              /* r0 = &argc */
    "  r29 = and(r29, #-128)\n"
    "  call _start_c\n");

static long sys3(long n, long a, long b, long c) {
  register long r0 asm("r0") = a; register long r1 asm("r1") = b;
  register long r2 asm("r2") = c; register long r6 asm("r6") = n;
  asm volatile("trap0(#1)" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r6) : "memory");
  return r0;
}
static void hx_exit(int code) { for (;;) sys3(93, code, 0, 0); }

/* buffered stdin */
static unsigned char ibuf[1 << 16]; static long ipos, ilen;
static void rd(unsigned char *dst, long n) {
  while (n > 0) {
    if (ipos == ilen) { ilen = sys3(63, 0, (long)ibuf, sizeof ibuf); ipos = 0; if (ilen <= 0) hx_exit(3); }
    long k = ilen - ipos; if (k > n) k = n;
    for (long i = 0; i < k; i++) dst[i] = ibuf[ipos + i];
    ipos += k; dst += k; n -= k;
  }
}
/* buffered stdout */
static unsigned char obuf[1 << 16]; static long olen;
static void flush(void) {
  long p = 0;
  while (p < olen) { long w = sys3(64, 1, (long)obuf + p, olen - p); if (w <= 0) hx_exit(4); p += w; }
  olen = 0;
}
static void wr(const void *src, long n) {
  const unsigned char *s = src;
  while (n > 0) {
    if (olen == sizeof obuf) flush();
    long k = sizeof obuf - olen; if (k > n) k = n;
    for (long i = 0; i < k; i++) obuf[olen + i] = s[i];
    olen += k; s += k; n -= k;
  }
}
static void wr_u32(unsigned v) { wr(&v, 4); }

/* every operand lives in its own 256-byte, 256-aligned slot */
#define SLOT 256
#define MAXOPS 6
typedef void (*test_fn)(const unsigned char *in, unsigned char *out);
struct entry { test_fn fn; int nops; short opsz[MAXOPS]; int outsz; };

extern const struct entry ENTRIES[];   /* defined by generated code */
extern const unsigned N_ENTRIES;

static unsigned char stage_in[MAXOPS * SLOT] __attribute__((aligned(256)));
static unsigned char stage_out[2 * SLOT] __attribute__((aligned(256)));

__attribute__((used)) void _start_c(long *sp) {
  (void)sp;
  unsigned hdr[3]; rd((unsigned char *)hdr, 12);
  if (hdr[0] != 0x49585648u /* "HVXI" */ || hdr[1] != N_ENTRIES) hx_exit(2);
  unsigned ncases = hdr[2];
  wr("HVXR", 4); wr_u32(1); wr_u32(N_ENTRIES); wr_u32(ncases);
  for (unsigned e = 0; e < N_ENTRIES; e++) wr_u32(ENTRIES[e].outsz);
  flush();
  for (unsigned e = 0; e < N_ENTRIES; e++) {
    const struct entry *t = &ENTRIES[e];
    for (unsigned c = 0; c < ncases; c++) {
      for (int k = 0; k < t->nops; k++) rd(stage_in + k * SLOT, t->opsz[k]);
      t->fn(stage_in, stage_out);
      wr(stage_out, t->outsz);
    }
    flush();   /* per entry: if qemu aborts on an undecodable insn, earlier entries survive */
  }
  wr("DONE", 4); flush(); hx_exit(0);
}
