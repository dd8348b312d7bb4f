/* dropout_wasm.c - the page's window into dropout.h, built for wasm32 with no libc.

   clang --target=wasm32 -nostdlib (Makefile, `make web`) compiles this file and the
   header into build/web/dropout.wasm. It imports nothing; every export below calls the
   library's own functions and leaves its answers in small static arrays that web/app.js
   reads through the module's memory. tests/web/stages.c prints the same values from a
   native build, and tests/web/suite.sh requires the page to show exactly those. The calls
   are the 1.0 interface's (a rule, a plan, its slices) and the building blocks.

   64-bit arguments (seed, stream, position) are wasm i64: JavaScript passes BigInts, which
   the call takes modulo 2^64 (2n ** 64n arrives as 0, -1n as 2^64 - 1): check the range
   before calling, as app.js's parseU64 does. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#define WD_EXPORT(name) __attribute__((export_name(name)))

#include "wasm_libc.h"   /* memset, memcpy: no libc here */

/* ---- results, read by app.js --------------------------------------------------------- */
enum { WD_MASK_MAX = 1 << 16 };            /* elements in the mask pictures */
static uint32_t wd_u32[64];
static double wd_f64[8];
static uint8_t wd_mask_one[WD_MASK_MAX / 8], wd_mask_chunked[WD_MASK_MAX / 8];

WD_EXPORT("wd_u32") uint32_t *wd_u32_ptr(void) { return wd_u32; }
WD_EXPORT("wd_f64") double *wd_f64_ptr(void) { return wd_f64; }
WD_EXPORT("wd_mask_one") uint8_t *wd_mask_one_ptr(void) { return wd_mask_one; }
WD_EXPORT("wd_mask_chunked") uint8_t *wd_mask_chunked_ptr(void) { return wd_mask_chunked; }
WD_EXPORT("wd_mask_max") int wd_mask_max(void) { return WD_MASK_MAX; }

/* FNV-1a 64 over bytes, the digest the demo prints for its weights */
static uint64_t wd_fnv(const uint8_t *b, size_t n)
{
   uint64_t h = 0xcbf29ce484222325u;
   size_t i;
   for (i = 0; i < n; ++i) { h ^= b[i]; h *= 0x100000001b3u; }
   return h;
}

/* ---- messages ------------------------------------------------------------------------- */
static char wd_text[256];
WD_EXPORT("wd_text") char *wd_text_ptr(void) { return wd_text; }
static int wd_say(const char *s)
{
   int i = 0;
   while (s[i] && i < (int)sizeof wd_text - 1) { wd_text[i] = s[i]; ++i; }
   wd_text[i] = 0;
   return i;
}
WD_EXPORT("wd_strerror") int wd_strerror(int code) { return wd_say(dropout_strerror(code)); }

/* Every refusal leaves its own message: a code returned without one would show the last
   call's text (the version string, another refusal) as this one's reason. */
static int wd_refuse(int code, const char *why)
{
   wd_say(why);
   return code;
}

/* ---- the rule ------------------------------------------------------------------------
   dropout_rule_init refuses a p in (0, 1) that the width realises as 0 or 1 (its message
   names the width that would serve); the page still shows what t that p rounds to, which
   is dropout_rule_make, the building block the rule is made from. */
static int wd_make_rule(dropout_rule *r, double p, int bits)
{
   int err = dropout_rule_init(r, p, (dropout_bits)bits);
   if (err) wd_strerror(err);
   return err;
}

/* ---- 1. one position, stage by stage ------------------------------------------------
   wd_u32 (the TR_* layout, mirrored in app.js): counter, key, the four words after each
   of the ten rounds, the output words, lane, draw, threshold, keep bit, block number;
   wd_round_keys: the key each round mixes in. Position pos of a `bits`-wide stream is
   draw lane pos % (128/bits) of block pos / (128/bits) (docs/SPEC.md). The keep bit is
   what the library's mask call gives at that position; where the rule is refused the
   stages are filled all the same and the error code is returned (message in wd_text). */
enum { TR_CTR = 0, TR_KEY = 4, TR_ROUNDS = 6, TR_WORDS = 46, TR_LANE = 50, TR_DRAW = 51,
       TR_T_LO = 52, TR_T_HI = 53, TR_KEEP = 54, TR_BLOCK_LO = 55, TR_BLOCK_HI = 56 };
static uint32_t wd_round_keys[20];
WD_EXPORT("wd_round_keys") uint32_t *wd_round_keys_ptr(void) { return wd_round_keys; }

WD_EXPORT("wd_trace") int wd_trace(uint64_t seed, uint64_t stream, uint64_t pos, int bits, double p)
{
   unsigned per, lane, r;
   uint64_t block, t;
   uint32_t ctr[4], key[2], words[4];
   uint8_t bit = 0;
   dropout_rule rule;
   dropout_plan plan;
   int err;
   if (bits != 8 && bits != 16 && bits != 32) return wd_refuse(DROPOUT_ERR_BITS, "bits: 8, 16 or 32");
   if (!(p >= 0.0 && p <= 1.0)) return wd_refuse(DROPOUT_ERR_P, "p: a number from 0 to 1");
   per = 128u / (unsigned)bits;
   block = pos / per;
   lane = (unsigned)(pos % per);
   ctr[0] = (uint32_t)block;  ctr[1] = (uint32_t)(block >> 32);
   ctr[2] = (uint32_t)stream; ctr[3] = (uint32_t)(stream >> 32);
   key[0] = (uint32_t)seed;   key[1] = (uint32_t)(seed >> 32);
   for (r = 0; r < 4; ++r) wd_u32[TR_CTR + r] = ctr[r];
   wd_u32[TR_KEY] = key[0]; wd_u32[TR_KEY + 1] = key[1];
   for (r = 1; r <= 10; ++r) {      /* the state after r rounds: the library's own rounds */
      uint32_t out[4];
      unsigned j;
      dropout_philox4x32_rounds(r, ctr, key, out);
      for (j = 0; j < 4; ++j) wd_u32[TR_ROUNDS + 4 * (r - 1) + j] = out[j];
      /* round r mixes in key + (r - 1) * (W0, W1) */
      wd_round_keys[2 * (r - 1)] = key[0] + (r - 1) * DROPOUT_PHILOX_W0;
      wd_round_keys[2 * (r - 1) + 1] = key[1] + (r - 1) * DROPOUT_PHILOX_W1;
   }
   dropout_block(seed, stream, block, words);
   for (r = 0; r < 4; ++r) wd_u32[TR_WORDS + r] = words[r];
   t = dropout_rule_make(p, bits).threshold;
   wd_u32[TR_LANE] = lane;
   wd_u32[TR_DRAW] = dropout_draw(words, bits, lane);
   wd_u32[TR_T_LO] = (uint32_t)t;
   wd_u32[TR_T_HI] = (uint32_t)(t >> 32);
   wd_u32[TR_BLOCK_LO] = (uint32_t)block;
   wd_u32[TR_BLOCK_HI] = (uint32_t)(block >> 32);
   wd_u32[TR_KEEP] = 2;             /* no decision: the rule is refused */
   err = wd_make_rule(&rule, p, bits);
   if (err) return err;
   /* the decision as the library's mask call makes it, at that one position */
   err = dropout_plan_at(&plan, &rule, dropout_key_make(seed, stream), dropout_pos_make(pos), 1);
   if (!err) err = dropout_mask(&plan, (size_t)plan.count, &bit);
   if (err) { wd_strerror(err); return err; }
   wd_u32[TR_KEEP] = bit & 1u;
   return (int)(bit & 1u) != dropout_keep(wd_u32[TR_DRAW], rule) ? -100 : 0;
}

/* ---- 2. the rule for (p, bits) --------------------------------------------------------
   wd_u32[0..1] threshold t (lo, hi); wd_f64: [0] realised p = t / 2^bits, [1] q, [2] scale
   as double, [3] scale as float: from dropout_rule_make, so also for a refused p. Returns
   dropout_rule_init's code (message in wd_text). */
WD_EXPORT("wd_rule") int wd_rule(double p, int bits)
{
   dropout_rule r, made;
   double two_b;
   if (bits != 8 && bits != 16 && bits != 32) return wd_refuse(DROPOUT_ERR_BITS, "bits: 8, 16 or 32");
   if (!(p >= 0.0 && p <= 1.0)) return wd_refuse(DROPOUT_ERR_P, "p: a number from 0 to 1");
   made = dropout_rule_make(p, bits);
   two_b = (double)((uint64_t)1 << bits);
   wd_u32[0] = (uint32_t)made.threshold;
   wd_u32[1] = (uint32_t)(made.threshold >> 32);
   wd_f64[0] = (double)made.threshold / two_b;
   wd_f64[1] = 1.0 - (double)made.threshold / two_b;
   wd_f64[2] = made.scale_f64;
   wd_f64[3] = (double)made.scale_f32;
   return wd_make_rule(&r, p, bits);
}

/* ---- 3. a mask, as one call and as k chunks ------------------------------------------
   wd_mask: the plan of n elements at (seed, stream, pos), its mask into wd_mask_one;
   wd_u32[0] kept count, [1..2] digest (lo, hi).
   wd_mask_chunks: the same plan cut with dropout_plan_slice into k chunks (starts on
   multiples of 8 elements: a mask byte holds 8), each masked by its own call into
   wd_mask_chunked; wd_u32[0] kept, [1..2] digest, [3 + i] start of chunk i, [3 + k] = n. */
static uint32_t wd_kept(const uint8_t *m, size_t n)
{
   uint32_t k = 0;
   size_t i;
   for (i = 0; i < n; ++i) k += (m[i / 8] >> (i % 8)) & 1u;
   return k;
}

static int wd_plan(dropout_plan *plan, int n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t pos)
{
   dropout_rule rule;
   int err;
   if (n < 1 || n > WD_MASK_MAX) return wd_refuse(DROPOUT_ERR_ARG, "n: from 1 to 65536 elements");
   err = wd_make_rule(&rule, p, bits);
   if (err) return err;
   err = dropout_plan_at(plan, &rule, dropout_key_make(seed, stream), dropout_pos_make(pos), (uint64_t)n);
   if (err) wd_strerror(err);
   return err;
}

WD_EXPORT("wd_mask") int wd_mask(int n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t pos)
{
   dropout_plan plan;
   uint64_t h;
   int err = wd_plan(&plan, n, p, bits, seed, stream, pos);
   if (!err) err = dropout_mask(&plan, (size_t)plan.count, wd_mask_one);
   if (err) { wd_strerror(err); return err; }
   h = wd_fnv(wd_mask_one, ((size_t)n + 7) / 8);
   wd_u32[0] = wd_kept(wd_mask_one, (size_t)n);
   wd_u32[1] = (uint32_t)h; wd_u32[2] = (uint32_t)(h >> 32);
   return 0;
}

WD_EXPORT("wd_mask_chunks") int wd_mask_chunks(int n, int k, double p, int bits, uint64_t seed,
                                               uint64_t stream, uint64_t pos)
{
   dropout_plan whole, part;
   uint64_t h;
   int i, err = wd_plan(&whole, n, p, bits, seed, stream, pos);
   if (err) return err;
   if (k < 1 || k > 32) return wd_refuse(DROPOUT_ERR_ARG, "k: from 1 to 32 chunks");
   for (i = 0; i < ((n + 7) / 8); ++i) wd_mask_chunked[i] = 0xA5;   /* no stale bits survive */
   for (i = 0; i <= k; ++i) wd_u32[3 + i] = (uint32_t)(((int64_t)n * i / k) & ~7);
   wd_u32[3 + k] = (uint32_t)n;
   for (i = 0; i < k; ++i) {
      uint32_t s = wd_u32[3 + i], e = wd_u32[4 + i];
      if (e == s) continue;
      err = dropout_plan_slice(&whole, s, e - s, &part);   /* elements s..e-1 of the plan */
      if (!err) err = dropout_mask(&part, (size_t)part.count, wd_mask_chunked + s / 8);
      if (err) { wd_strerror(err); return err; }
   }
   h = wd_fnv(wd_mask_chunked, ((size_t)n + 7) / 8);
   wd_u32[0] = wd_kept(wd_mask_chunked, (size_t)n);
   wd_u32[1] = (uint32_t)h; wd_u32[2] = (uint32_t)(h >> 32);
   return 0;
}

WD_EXPORT("wd_version") int wd_version(void) { return wd_say(DROPOUT_VERSION_STRING); }

/* ---- 5. WebGPU: the forward the page's WebGPU section compares with the GPU's -----------
   wd_forward_f32: the plan of n elements at (seed, stream, pos), y = forward(x) with its
   mask, x read from wd_fx, y into wd_fy, the mask into wd_mask_one (web/webgpu.js fills x
   and runs dropout_webgpu.js on the same inputs). */
static float wd_fx[WD_MASK_MAX], wd_fy[WD_MASK_MAX];
WD_EXPORT("wd_fx") float *wd_fx_ptr(void) { return wd_fx; }
WD_EXPORT("wd_fy") float *wd_fy_ptr(void) { return wd_fy; }

WD_EXPORT("wd_forward_f32") int wd_forward_f32(int n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t pos)
{
   dropout_plan plan;
   dropout_desc desc;
   dropout_tensors t;
   int err = wd_plan(&plan, n, p, bits, seed, stream, pos);
   if (err) return err;   /* wd_plan left the message */
   memset(&t, 0, sizeof t);
   t.out = wd_fy; t.mask = wd_mask_one; t.in = wd_fx;
   err = dropout_desc_init(&desc, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
   if (!err) err = dropout_run(&desc, &t);   /* the 1-D descriptor call: forward's bits */
   if (err) wd_strerror(err);
   return err;
}
