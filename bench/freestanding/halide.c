/* What an ahead-of-time Halide pipeline for Hexagon calls outside itself,
   for the benchmark harness under qemu-hexagon: Halide's allocator on the
   harness's bump allocator, its error reporting (a message on stderr and
   the error's code, which the harness reports as a failed call), and the
   QuRT and HAP calls of a Hexagon DSP's operating system, which a
   single-threaded program under qemu-user needs none of (HVX is always on;
   no VTCM is requested by the suite's schedules). Halide's own runtime for
   Hexagon is built for QuRT and does not link here. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "HalideRuntime.h"

static int fail(const char *what, const char *name, int code) {
  fprintf(stderr, "halide: %s (%s)\n", what, name ? name : "?");
  return code;
}

void *malloc(size_t size) { return aligned_alloc(128, (size + 127) / 128 * 128); }
void free(void *p) { (void)p; } /* the bump allocator never reuses memory */
void *halide_malloc(void *uc, size_t size) { (void)uc; return malloc(size); }
void halide_free(void *uc, void *p) { (void)uc; free(p); }
void halide_error(void *uc, const char *message) { (void)uc; fail("error", message, 0); }
char *halide_string_to_string(char *dst, char *end, const char *arg) {
  while (dst < end - 1 && *arg) *dst++ = *arg++;
  if (dst < end) *dst = 0;
  return dst;
}
int halide_msan_annotate_memory_is_initialized(void *uc, const void *p, uint64_t n) { (void)uc, (void)p, (void)n; return 0; }

int halide_error_explicit_bounds_too_small(void *uc, const char *f, const char *v, int a, int b, int c, int d) {
  (void)uc, (void)v, (void)a, (void)b, (void)c, (void)d;
  return fail("explicit bounds too small", f, halide_error_code_explicit_bounds_too_small);
}
int halide_error_bad_type(void *uc, const char *f, uint32_t given, uint32_t correct) {
  (void)uc, (void)given, (void)correct;
  return fail("bad type", f, halide_error_code_bad_type);
}
int halide_error_bad_dimensions(void *uc, const char *f, int32_t given, int32_t correct) {
  (void)uc, (void)given, (void)correct;
  return fail("bad dimensions", f, halide_error_code_bad_dimensions);
}
int halide_error_access_out_of_bounds(void *uc, const char *f, int d, int a, int b, int c, int e) {
  (void)uc, (void)d, (void)a, (void)b, (void)c, (void)e;
  return fail("access out of bounds", f, halide_error_code_access_out_of_bounds);
}
int halide_error_buffer_allocation_too_large(void *uc, const char *b, uint64_t size, uint64_t max) {
  (void)uc, (void)size, (void)max;
  return fail("allocation too large", b, halide_error_code_buffer_allocation_too_large);
}
int halide_error_buffer_extents_negative(void *uc, const char *b, int d, int e) {
  (void)uc, (void)d, (void)e;
  return fail("negative extent", b, halide_error_code_buffer_extents_negative);
}
int halide_error_buffer_extents_too_large(void *uc, const char *b, int64_t size, int64_t max) {
  (void)uc, (void)size, (void)max;
  return fail("extents too large", b, halide_error_code_buffer_extents_too_large);
}
int halide_error_constraint_violated(void *uc, const char *v, int a, const char *w, int b) {
  (void)uc, (void)a, (void)w, (void)b;
  return fail("constraint violated", v, halide_error_code_constraint_violated);
}
int halide_error_out_of_memory(void *uc) { (void)uc; return fail("out of memory", 0, halide_error_code_out_of_memory); }
int halide_error_buffer_argument_is_null(void *uc, const char *b) {
  (void)uc;
  return fail("null buffer", b, halide_error_code_buffer_argument_is_null);
}
int halide_error_host_is_null(void *uc, const char *f) { (void)uc; return fail("null host pointer", f, halide_error_code_host_is_null); }
int halide_error_device_dirty_with_no_device_support(void *uc, const char *b) {
  (void)uc;
  return fail("device dirty", b, halide_error_code_device_dirty_with_no_device_support);
}

int qurt_hvx_lock(int mode) { (void)mode; return 0; }
int qurt_hvx_unlock(void) { return 0; }
void *HAP_request_VTCM(unsigned size, unsigned single_page) { (void)size, (void)single_page; return 0; }
int HAP_release_VTCM(void *p) { (void)p; return 0; }
