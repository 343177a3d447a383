// Runs each kernel of Lower/x86/kernels.mlir compiled two ways (hydride's
// lowering: hydride_<name>; LLVM's own: <name>) on the same random and edge
// inputs and counts the results that differ.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef int8_t v64i8 __attribute__((vector_size(64)));
typedef int16_t v32i16 __attribute__((vector_size(64)));
typedef int32_t v16i32 __attribute__((vector_size(64)));

#define KERNEL2(ret, name, t0, t1)                                                                                     \
  ret name(t0, t1);                                                                                                    \
  ret hydride_##name(t0, t1);
#define KERNEL3(ret, name, t0, t1, t2)                                                                                 \
  ret name(t0, t1, t2);                                                                                                \
  ret hydride_##name(t0, t1, t2);

KERNEL3(v16i32, dot_u8s8_acc, v64i8, v64i8, v16i32)
KERNEL2(v16i32, madd_i16, v32i16, v32i16)
KERNEL2(v32i16, adds_i16_clamp, v32i16, v32i16)
KERNEL2(v64i8, subs_u8, v64i8, v64i8)
KERNEL2(v64i8, avg_u8, v64i8, v64i8)
KERNEL2(v32i16, mulhi_i16, v32i16, v32i16)
KERNEL2(v32i16, negative_adds_off_by_one, v32i16, v32i16)
KERNEL2(v64i8, absdiff_u8, v64i8, v64i8)
typedef int8_t v32i8 __attribute__((vector_size(32)));
v32i16 clamp_i16(v32i16);
v32i16 hydride_clamp_i16(v32i16);
v32i8 packus_i16(v32i16);
v32i8 hydride_packus_i16(v32i16);
KERNEL2(v64i8, interleave_i8, v32i8, v32i8)
typedef int16_t v8i16 __attribute__((vector_size(16)));
typedef int8_t v8i8 __attribute__((vector_size(8)));
typedef int8_t v16i8 __attribute__((vector_size(16)));
v8i8 packus_i16_x8(v8i16);
v8i8 hydride_packus_i16_x8(v8i16);
KERNEL2(v16i8, packs_i16_x16, v8i16, v8i16)
KERNEL2(v8i16, hadd_i16, v8i16, v8i16)
KERNEL3(v8i16, mulhi_adds_i16, v8i16, v8i16, v8i16)
KERNEL2(v16i32, sumsq_i16_acc, v32i16, v16i32)

static uint64_t state = 0x2545f4914f6cdd1dull;
static uint8_t next_byte(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (uint8_t)(state >> 24);
}

// 64 bytes: random, or (every fourth round) edge bytes 0x00 0xff 0x7f 0x80
// and the edges of 16- and 32-bit elements.
static void fill(void *p, int round) {
  uint8_t *b = p;
  static const uint8_t edges[] = {0x00, 0xff, 0x7f, 0x80};
  for (int i = 0; i < 64; ++i)
    b[i] = (round % 4 == 3) ? edges[(next_byte() + i / 2) % 4] : next_byte();
}

#define CHECK(name, call_h, call_l, type)                                                                              \
  do {                                                                                                                 \
    type h = call_h, l = call_l;                                                                                       \
    if (memcmp(&h, &l, sizeof h) != 0)                                                                                 \
      ++mismatches[k];                                                                                                 \
    ++k;                                                                                                               \
  } while (0)

int main(void) {
  enum { ROUNDS = 1000, KERNELS = 16 };
  static const char *names[KERNELS] = {"dot_u8s8_acc", "madd_i16",   "adds_i16_clamp", "subs_u8",
                                       "avg_u8",       "mulhi_i16",  "negative_adds_off_by_one",
                                       "absdiff_u8",   "clamp_i16",  "packus_i16",     "interleave_i8",
                                       "packus_i16_x8", "packs_i16_x16", "hadd_i16", "mulhi_adds_i16", "sumsq_i16_acc"};
  int mismatches[KERNELS] = {0};
  for (int round = 0; round < ROUNDS; ++round) {
    union {
      v64i8 b;
      v32i16 w;
      v16i32 d;
      v32i8 h;
      v8i16 s;
    } x, y, z;
    fill(&x, round);
    fill(&y, round);
    fill(&z, round);
    int k = 0;
    CHECK(dot, hydride_dot_u8s8_acc(x.b, y.b, z.d), dot_u8s8_acc(x.b, y.b, z.d), v16i32);
    CHECK(madd, hydride_madd_i16(x.w, y.w), madd_i16(x.w, y.w), v16i32);
    CHECK(adds, hydride_adds_i16_clamp(x.w, y.w), adds_i16_clamp(x.w, y.w), v32i16);
    CHECK(subs, hydride_subs_u8(x.b, y.b), subs_u8(x.b, y.b), v64i8);
    CHECK(avg, hydride_avg_u8(x.b, y.b), avg_u8(x.b, y.b), v64i8);
    CHECK(mulhi, hydride_mulhi_i16(x.w, y.w), mulhi_i16(x.w, y.w), v32i16);
    CHECK(neg, hydride_negative_adds_off_by_one(x.w, y.w), negative_adds_off_by_one(x.w, y.w), v32i16);
    CHECK(absdiff, hydride_absdiff_u8(x.b, y.b), absdiff_u8(x.b, y.b), v64i8);
    CHECK(clamp, hydride_clamp_i16(x.w), clamp_i16(x.w), v32i16);
    CHECK(packus, hydride_packus_i16(x.w), packus_i16(x.w), v32i8);
    CHECK(interleave, hydride_interleave_i8(x.h, y.h), interleave_i8(x.h, y.h), v64i8);
    CHECK(packus8, hydride_packus_i16_x8(x.s), packus_i16_x8(x.s), v8i8);
    CHECK(packs, hydride_packs_i16_x16(x.s, y.s), packs_i16_x16(x.s, y.s), v16i8);
    CHECK(hadd, hydride_hadd_i16(x.s, y.s), hadd_i16(x.s, y.s), v8i16);
    CHECK(mulhi_adds, hydride_mulhi_adds_i16(x.s, y.s, z.s), mulhi_adds_i16(x.s, y.s, z.s), v8i16);
    CHECK(sumsq, hydride_sumsq_i16_acc(x.w, z.d), sumsq_i16_acc(x.w, z.d), v16i32);
  }
  int total = 0;
  for (int k = 0; k < KERNELS; ++k) {
    printf("%s: %d rounds, %d mismatches\n", names[k], ROUNDS, mismatches[k]);
    total += mismatches[k];
  }
  printf("total mismatches: %d\n", total);
  return total != 0;
}
