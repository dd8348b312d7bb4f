/* smoke.c - every public function once, in a file that is valid C99, C11, C++11 and
   C++17. tests/build/suite.sh compiles it with each compiler and standard under the
   project's warnings (-Werror) and runs it; argv[1] names the build in the result line.
   What it checks is small on purpose: the real tests are tests/<area>/test_*.c. */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <string.h>

int main(int argc, char **argv)
{
   enum { N = 37 };
   static float x32[N], y32[N], z32[N];
   static double x64[N], y64[N], z64[N];
   static uint16_t x16[N], y16[N], z16[N];
   static uint8_t m[(N + 7) / 8], m2[(N + 7) / 8];
   static uint32_t u[8];
   static float uf[8];
   static double ud[8];
   const uint32_t ctr[4] = {0, 0, 0, 0}, key[2] = {0, 0};
   uint32_t out[4], blk[4];
   char name[96];
   dropout_v0_gen g = dropout_v0_gen_make(1234, 7);
   dropout_rule r = dropout_rule_make(0.25, 8);
   uint64_t off = 0;
   int i, rc = 0;

   for (i = 0; i < N; ++i) {
      x32[i] = (float)i - 10.5f;
      x64[i] = (double)i - 10.5;
      x16[i] = dropout_f32_to_f16(x32[i]);
   }
   /* the stream */
   dropout_philox4x32_10(ctr, key, out);
   CHECK(out[0] == 0x6627e8d5u, "philox4x32_10 KAT");
   dropout_philox4x32_rounds(7, ctr, key, out);
   CHECK(out[0] == 0x5f6fb709u, "7-round KAT");
   dropout_block(0, 0, 0, blk);
   CHECK(blk[3] == 0x9b00dbd8u && dropout_v0_stream_u32(0, 0, 3) == blk[3], "block / stream_u32");
   rc |= dropout_v0_fill_u32(u, 8, 0, 0, 0);
   rc |= dropout_v0_fill_uniform_f32(uf, 8, 0, 0, 0);
   rc |= dropout_v0_fill_uniform_f64(ud, 8, 0, 0, 0);
   CHECK(u[1] == 0xe169c58du && uf[0] >= 0.0f && uf[0] < 1.0f && ud[0] >= 0.0 && ud[0] < 1.0, "fills");
   /* the building blocks */
   CHECK(r.threshold == 64 && r.scale_f32 == 4.0f / 3.0f && r.bits == 8, "rule_make");
   CHECK(dropout_draw(blk, 8, 0) == 0xd5u && dropout_keep(0xd5u, r) && !dropout_keep(63, r), "draw / keep");
   CHECK(dropout_apply_f32(3.0f, 1, r) == 4.0f && dropout_apply_f64(3.0, 0, r) == 0.0, "apply f32/f64");
   CHECK(dropout_apply_f16(dropout_f32_to_f16(3.0f), 1, r) == dropout_f32_to_f16(4.0f), "apply f16");
   CHECK(dropout_bf16_to_f32(dropout_apply_bf16(dropout_f32_to_bf16(3.0f), 1, r)) == 4.0f, "apply bf16");
   CHECK(dropout_f16_to_f32(dropout_f32_to_f16(-1.5f)) == -1.5f, "f16 round trip");
   /* the API */
   rc |= dropout_gen_next(&g, N, &off);
   CHECK(off == 0 && g.offset == N, "gen_next");
   rc |= dropout_v0_forward_f32(y32, m, x32, N, 0.3, 8, g.seed, g.stream, off);
   rc |= dropout_v0_backward_f32(z32, x32, N, 0.3, 8, g.seed, g.stream, off);
   CHECK(memcmp(y32, z32, sizeof y32) == 0, "f32 backward = forward");
   rc |= dropout_backward_mask_f32(z32, x32, m, N, 0.3, 8);
   rc |= dropout_v0_apply_mask_f32(y32, x32, m, N, 0.3, 8);
   CHECK(memcmp(y32, z32, sizeof y32) == 0, "f32 stored mask");
   rc |= dropout_v0_forward_f64(y64, m2, x64, N, 0.3, 8, g.seed, g.stream, off);
   rc |= dropout_v0_backward_f64(z64, x64, N, 0.3, 8, g.seed, g.stream, off);
   rc |= dropout_v0_apply_mask_f64(z64, x64, m, N, 0.3, 8);
   rc |= dropout_backward_mask_f64(z64, x64, m, N, 0.3, 8);
   CHECK(memcmp(y64, z64, sizeof y64) == 0 && memcmp(m, m2, sizeof m) == 0, "f64");
   rc |= dropout_v0_forward_f16(y16, m2, x16, N, 0.3, 8, g.seed, g.stream, off);
   rc |= dropout_v0_backward_f16(z16, x16, N, 0.3, 8, g.seed, g.stream, off);
   rc |= dropout_v0_apply_mask_f16(z16, x16, m, N, 0.3, 8);
   rc |= dropout_backward_mask_f16(z16, x16, m, N, 0.3, 8);
   CHECK(memcmp(y16, z16, sizeof y16) == 0 && memcmp(m, m2, sizeof m) == 0, "f16");
   rc |= dropout_v0_forward_bf16(y16, m2, x16, N, 0.3, 8, g.seed, g.stream, off);
   rc |= dropout_v0_backward_bf16(z16, x16, N, 0.3, 8, g.seed, g.stream, off);
   rc |= dropout_v0_apply_mask_bf16(z16, x16, m, N, 0.3, 8);
   rc |= dropout_backward_mask_bf16(z16, x16, m, N, 0.3, 8);
   CHECK(memcmp(y16, z16, sizeof y16) == 0 && memcmp(m, m2, sizeof m) == 0, "bf16");
   rc |= dropout_v0_mask(m2, N, 0.3, 8, g.seed, g.stream, off);
   CHECK(memcmp(m, m2, sizeof m) == 0, "mask");
   rc |= dropout_check_args(0.3, 8, N, off);
   CHECK(rc == DROPOUT_OK, "a call failed: %s", dropout_strerror(rc));
   CHECK(dropout_check_args(0.3, 7, N, 0) == DROPOUT_ERR_BITS, "check_args");
   CHECK(strlen(dropout_strerror(DROPOUT_ERR_P)) > 0, "strerror");
   CHECK(strcmp(DROPOUT_VERSION_STRING, "") != 0 && DROPOUT_VERSION_MAJOR >= 0, "version");

   snprintf(name, sizeof name, "smoke %s", argc > 1 ? argv[1] : "");
   (void)case_skip;
   case_end(name);
   return check_exit();
}
