// The differential harness's kernel table (written by differential.py).
typedef void kernel_fn(void *const *args, void *result);
enum { MAX_ARGS = 8, MAX_BYTES = 256 };
struct kernel {
  const char *name;
  kernel_fn *hydride, *llvm;
  int args;
  int arg_bytes[MAX_ARGS];
  int result_bytes;
};
extern const struct kernel KERNELS[];
extern const int N_KERNELS;
