// Runs each kernel of Lower/x86/kernels.mlir compiled two ways (hydride's
// lowering: hydride_<name>; LLVM's own: <name>) on the same random and edge
// inputs and counts the results that differ.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// Every kernel is called through NAME_mem(args, result) (Inputs/mem_wrappers.py):
// arguments and result cross the C <-> IR boundary through memory.
typedef void kernel_fn(void *const *args, void *result);
#define KERNEL(name) kernel_fn name##_mem, hydride_##name##_mem;
KERNEL(dot_u8s8_acc)
KERNEL(madd_i16)
KERNEL(adds_i16_clamp)
KERNEL(subs_u8)
KERNEL(avg_u8)
KERNEL(mulhi_i16)
KERNEL(negative_adds_off_by_one)
KERNEL(absdiff_u8)
KERNEL(clamp_i16)
KERNEL(packus_i16)
KERNEL(interleave_i8)
KERNEL(packus_i16_x8)
KERNEL(packs_i16_x16)
KERNEL(hadd_i16)
KERNEL(mulhi_adds_i16)
KERNEL(sumsq_i16_acc)

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

struct kernel {
  const char *name;
  kernel_fn *hydride, *llvm;
  int result_bytes;
};
#define K(name, bytes) {#name, hydride_##name##_mem, name##_mem, bytes}

int main(void) {
  enum { ROUNDS = 1000, KERNELS = 16 };
  static const struct kernel kernels[KERNELS] = {
      K(dot_u8s8_acc, 64), K(madd_i16, 64),      K(adds_i16_clamp, 64), K(subs_u8, 64),
      K(avg_u8, 64),       K(mulhi_i16, 64),     K(negative_adds_off_by_one, 64),
      K(absdiff_u8, 64),   K(clamp_i16, 64),     K(packus_i16, 32),     K(interleave_i8, 64),
      K(packus_i16_x8, 8), K(packs_i16_x16, 16), K(hadd_i16, 16),       K(mulhi_adds_i16, 16),
      K(sumsq_i16_acc, 64)};
  int mismatches[KERNELS] = {0};
  for (int round = 0; round < ROUNDS; ++round) {
    _Alignas(64) uint8_t x[64], y[64], z[64], h[64], l[64];
    fill(x, round);
    fill(y, round);
    fill(z, round);
    for (int k = 0; k < KERNELS; ++k) {
      // sumsq_i16_acc reads (x, z): its accumulator is the third buffer.
      void *const args[3] = {x, k == KERNELS - 1 ? (void *)z : (void *)y, z};
      memset(h, 0, sizeof h);
      memset(l, 0, sizeof l);
      kernels[k].hydride(args, h);
      kernels[k].llvm(args, l);
      if (memcmp(h, l, kernels[k].result_bytes) != 0)
        ++mismatches[k];
    }
  }
  int total = 0;
  for (int k = 0; k < KERNELS; ++k) {
    printf("%s: %d rounds, %d mismatches\n", kernels[k].name, ROUNDS, mismatches[k]);
    total += mismatches[k];
  }
  printf("total mismatches: %d\n", total);
  return total != 0;
}
