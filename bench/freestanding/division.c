/* Integer division, which Hexagon has no instruction for and clang calls
   these for (compiler-rt's names): shift and subtract, no division here.
   Linked into every freestanding Hexagon program: the benchmark's harness
   (with runtime.c) and the differential fuzzer's. */
static unsigned long long divide(unsigned long long n, unsigned long long d, unsigned long long *rest) {
  unsigned long long q = 0, r = 0;
  for (int i = 63; i >= 0; --i) {
    r = (r << 1) | ((n >> i) & 1);
    if (r >= d) r -= d, q |= 1ull << i;
  }
  *rest = r;
  return q;
}
static long long divide_signed(long long n, long long d, long long *rest) {
  unsigned long long r, q = divide(n < 0 ? -(unsigned long long)n : (unsigned long long)n,
                                   d < 0 ? -(unsigned long long)d : (unsigned long long)d, &r);
  *rest = n < 0 ? -(long long)r : (long long)r;
  return (n < 0) != (d < 0) ? -(long long)q : (long long)q;
}
unsigned __hexagon_udivsi3(unsigned n, unsigned d) { unsigned long long r; return (unsigned)divide(n, d, &r); }
unsigned __hexagon_umodsi3(unsigned n, unsigned d) { unsigned long long r; divide(n, d, &r); return (unsigned)r; }
int __hexagon_divsi3(int n, int d) { long long r; return (int)divide_signed(n, d, &r); }
int __hexagon_modsi3(int n, int d) { long long r; divide_signed(n, d, &r); return (int)r; }
unsigned long long __hexagon_udivdi3(unsigned long long n, unsigned long long d) { unsigned long long r; return divide(n, d, &r); }
unsigned long long __hexagon_umoddi3(unsigned long long n, unsigned long long d) { unsigned long long r; divide(n, d, &r); return r; }
long long __hexagon_divdi3(long long n, long long d) { long long r; return divide_signed(n, d, &r); }
long long __hexagon_moddi3(long long n, long long d) { long long r; divide_signed(n, d, &r); return r; }
