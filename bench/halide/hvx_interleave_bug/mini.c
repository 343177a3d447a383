/* Calls mini.py's pipeline on 128 output lanes and compares each with
   (in[i + OFFSET] + in[i + OFFSET + 1]) >> 1; prints the first lanes and the
   count that differ; exits 1 if any does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "HalideRuntime.h"
#ifndef OFFSET
#define OFFSET 1
#endif
#define LANES 128
int mini(struct halide_buffer_t *inp, struct halide_buffer_t *out);

static void view(struct halide_buffer_t *b, halide_dimension_t *d, uint8_t *host, int extent) {
  memset(b, 0, sizeof *b);
  d->min = 0, d->extent = extent, d->stride = 1, d->flags = 0;
  b->host = host, b->dim = d, b->dimensions = 1;
  b->type.code = halide_type_uint, b->type.bits = 8, b->type.lanes = 1;
}

int main(void) {
  uint8_t *in = aligned_alloc(128, 2 * LANES), *out = aligned_alloc(128, LANES);
  for (int i = 0; i < 2 * LANES; ++i) in[i] = (uint8_t)(2 * i);
  halide_dimension_t din, dout;
  struct halide_buffer_t bin, bout;
  view(&bin, &din, in, 2 * LANES);
  view(&bout, &dout, out, LANES);
  if (mini(&bin, &bout)) { printf("the pipeline failed\n"); return 2; }
  int differ = 0;
  printf("out:  ");
  for (int i = 0; i < 8; ++i) printf(" %d", out[i]);
  printf("\nwant: ");
  for (int i = 0; i < 8; ++i) printf(" %d", (uint8_t)((in[i + OFFSET] + in[i + OFFSET + 1]) >> 1));
  for (int i = 0; i < LANES; ++i) differ += out[i] != (uint8_t)((in[i + OFFSET] + in[i + OFFSET + 1]) >> 1);
  printf("\n%d of %d lanes differ\n", differ, LANES);
  return differ != 0;
}
