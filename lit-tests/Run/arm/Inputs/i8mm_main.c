// Calls the contractions of Lower/arm/i8mm-integration.mlir, compiled
// through hydride (hydride_test_*) and through LLVM's own lowering (test_*),
// on the operands of MLIR's ArmNeon i8mm integration test, and prints the
// results as that test's vector.print does.
#include <stdint.h>
#include <stdio.h>

typedef void kernel_fn(void *const *args, void *result);

kernel_fn test_smmla_mem, hydride_test_smmla_mem;
kernel_fn test_ummla_mem, hydride_test_ummla_mem;
kernel_fn test_usmmla_mem, hydride_test_usmmla_mem;
kernel_fn test_summla_mem, hydride_test_summla_mem;

static void show(const char *path, const char *title, kernel_fn *f, const int8_t *lhs, const int8_t *rhs, const int32_t *acc) {
  void *args[3] = {(void *)lhs, (void *)rhs, (void *)acc};
  int32_t out[16];
  f(args, out);
  printf("%s Result(%s):\n", path, title);
  for (int r = 0; r < 4; ++r) printf("( %d, %d, %d, %d )\n", out[4 * r], out[4 * r + 1], out[4 * r + 2], out[4 * r + 3]);
}

int main(void) {
  static const int8_t smmla_lhs[32] = {-35, -27, -36, -31, 23, -34, -8, -33, -20, 17, -32, -47, 37, 22, -7, -21, -7, -35, 20, -4, 39, 46, -23, 40, 40, 27, 37, 43, 38, -6, 37, 49};
  static const int8_t smmla_rhs[32] = {-17, -50, -1, 48, -13, 22, 39, 33, -35, -24, 37, -32, 33, 30, -11, -17, -28, 31, 3, -44, -15, -27, 22, 35, -23, 39, 48, 26, -23, 32, -39, -38};
  static const int32_t smmla_acc[16] = {-44, 20, 44, -46, -8, 25, -34, 26, -20, -36, -3, 39, -48, -31, -25, -21};
  show("hydride", "SMMLA", hydride_test_smmla_mem, smmla_lhs, smmla_rhs, smmla_acc);
  show("llvm", "SMMLA", test_smmla_mem, smmla_lhs, smmla_rhs, smmla_acc);
  static const int8_t ummla_lhs[32] = {35, 42, 37, 49, 36, 36, 23, 33, 39, 34, 33, 45, 43, 10, 44, 47, 18, 35, 29, 25, 36, 33, 28, 29, 26, 49, 43, 32, 27, 16, 45, 33};
  static const int8_t ummla_rhs[32] = {18, 31, 37, 35, 44, 22, 37, 28, 21, 22, 49, 39, 30, 28, 35, 37, 21, 47, 39, 35, 23, 43, 24, 49, 49, 49, 40, 32, 37, 20, 47, 40};
  static const int32_t ummla_acc[16] = {16, 16, 48, 40, 40, 24, 35, 12, 33, 24, 29, 19, 28, 13, 33, 18};
  show("hydride", "UMMLA", hydride_test_ummla_mem, ummla_lhs, ummla_rhs, ummla_acc);
  show("llvm", "UMMLA", test_ummla_mem, ummla_lhs, ummla_rhs, ummla_acc);
  static const int8_t usmmla_lhs[32] = {-103, -95, 24, -99, -45, -102, 52, 27, -88, 77, -120, 124, -7, 28, 13, 122, 97, 82, -75, 39, 53, 25, 80, -16, -72, -29, 106, -91, 126, 113, 121, -28};
  static const int8_t usmmla_rhs[32] = {40, 27, 37, 43, 38, -6, 37, 49, -17, -50, -1, 48, -13, 22, 39, 33, -35, -24, 37, -32, 33, 30, -11, -17, -28, 31, 3, -44, -15, -27, 22, 35};
  static const int32_t usmmla_acc[16] = {-44, 20, 44, -46, -8, 25, -34, 26, -20, -36, -3, 39, -48, -31, -25, -21};
  show("hydride", "USMMLA", hydride_test_usmmla_mem, usmmla_lhs, usmmla_rhs, usmmla_acc);
  show("llvm", "USMMLA", test_usmmla_mem, usmmla_lhs, usmmla_rhs, usmmla_acc);
  static const int8_t summla_lhs[32] = {-35, -27, -36, -31, 23, -34, -8, -33, -20, 17, -32, -47, 37, 22, -7, -21, -7, -35, 20, -4, 39, 46, -23, 40, 40, 27, 37, 43, 38, -6, 37, 49};
  static const int8_t summla_rhs[32] = {125, -85, -118, -69, 108, -81, 82, 99, -35, 25, -92, 97, -100, -35, -38, -79, -85, -96, -37, -65, -112, 45, -95, -46, -33, -91, 123, 99, 108, 86, 37, 92};
  static const int32_t summla_acc[16] = {-44, 20, 44, -46, -8, 25, -34, 26, -20, -36, -3, 39, -48, -31, -25, -21};
  show("hydride", "SUMMLA (i.e. USMMLA transposed)", hydride_test_summla_mem, summla_lhs, summla_rhs, summla_acc);
  show("llvm", "SUMMLA (i.e. USMMLA transposed)", test_summla_mem, summla_lhs, summla_rhs, summla_acc);
  return 0;
}
