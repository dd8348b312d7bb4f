/* dropouth_mex.c - dropout.h for MATLAB and GNU Octave: the one gateway behind +dropouth/.
 *
 * Written against the plain MEX API (mex.h), so the same file builds with GNU Octave's
 * `mkoctfile --mex` and with MATLAB's `mex`; docs/MATLAB.md has both recipes. Users call
 * the package functions (dropouth.forward, .backward, .mask, .stream_u32, .uniform,
 * .realised_p, .version); each passes its arguments here unchanged with a command name
 * first, so every check lives in this file, once.
 *
 * The array's memory order is the stream order: MATLAB and Octave store arrays column-major,
 * so element j of the contiguous call (position Position + j) is the element with linear
 * index j + 1, x(j + 1). Any size and any number of dimensions is the one 1-D call over
 * numel(x) elements (docs/SPEC.md, "Column-major arrays (MATLAB, Octave)").
 *
 * Errors: every argument is checked before an output is made, and a refusal is an error
 * with an identifier (dropouth:badP, dropouth:badSeed, ...) whose message names the
 * argument. A call that errors returns nothing; inputs are never written.
 *
 * The package's .m files send the command with their protocol number, "forward/3": a
 * gateway built from another checkout (an old build still on the path after an update)
 * takes other arguments or checks other things, so a mismatch either way is an error
 * (dropouth:staleBuild, via matlab/dropouth_rethrow.m for 0.9.0's gateway), never a call
 * served by the wrong build.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mex.h"

/* Raise it whenever a command's arguments, outputs or checks change, and with it the "/N"
 * of every command in matlab/+dropouth/ (the octave tests fail on any file left behind). */
#ifndef DH_PROTOCOL   /* (a test builds another number, as an old build would be) */
#define DH_PROTOCOL 3
#endif

#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

/* ---- errors --------------------------------------------------------------------------- */

/* mexErrMsgIdAndTxt formats like printf; every message goes through "%s" so that a user's
 * text (an option name) is never read as a format. */
static void dh_fail(const char *id, const char *msg)
{
   mexErrMsgIdAndTxt(id, "%s", msg);
}

static char dh_msg[512];

/* ---- what the command's arguments are called ------------------------------------------ */

typedef struct dh_cmd {
   const char *name;     /* the package function, for messages: "dropouth.forward" */
   const char *data;     /* its first argument's name ("x", "dy", "sz") */
   const char *data_id;  /* the identifier for a bad first argument */
   int takes_p;          /* forward, backward, mask, realised_p */
   int takes_class;      /* uniform: 'single' or 'double' before the options */
} dh_cmd;

typedef struct dh_opts {
   int have_seed, have_pos, bits;    /* bits 0: the default width for p */
   int pos_bits;                     /* 0: pos counts this call's draws; 8, 16, 32: a forward's
                                        next gave it, counting draws of that width (dh_position) */
   uint64_t seed, stream, pos;
   mxClassID cls;                    /* uniform's class */
} dh_opts;

/* ---- scalars ------------------------------------------------------------------------- */

/* An integer argument (Seed, Stream, Position, Bits, a dimension) from one element of a
 * real numeric array: any integer class with a value >= 0, or a double that holds an exact
 * integer in [0, 2^53). A double at or above 2^53 is refused even when it is an integer:
 * 2^53 + 1 typed as a double is 2^53 by the time it arrives, so the value the user meant
 * cannot be known. Returns 0 and sets *why on refusal. */
static int dh_uint(const mxArray *a, size_t i, uint64_t *v, const char **why)
{
   const void *d = mxGetData(a);
   switch (mxGetClassID(a)) {
   case mxUINT64_CLASS: *v = ((const uint64_t *)d)[i]; return 1;
   case mxUINT32_CLASS: *v = ((const uint32_t *)d)[i]; return 1;
   case mxUINT16_CLASS: *v = ((const uint16_t *)d)[i]; return 1;
   case mxUINT8_CLASS:  *v = ((const uint8_t *)d)[i]; return 1;
   case mxINT64_CLASS: case mxINT32_CLASS: case mxINT16_CLASS: case mxINT8_CLASS: {
      int64_t s;
      switch (mxGetClassID(a)) {
      case mxINT64_CLASS: s = ((const int64_t *)d)[i]; break;
      case mxINT32_CLASS: s = ((const int32_t *)d)[i]; break;
      case mxINT16_CLASS: s = ((const int16_t *)d)[i]; break;
      default:            s = ((const int8_t *)d)[i]; break;
      }
      if (s < 0) { *why = "is negative"; return 0; }
      *v = (uint64_t)s;
      return 1;
   }
   case mxDOUBLE_CLASS: {
      double x = ((const double *)d)[i];
      if (!(x >= 0.0)) { *why = x < 0.0 ? "is negative" : "is NaN"; return 0; }
      if (!(x < 9007199254740992.0)) {
         *why = "is a double at or above 2^53, where a double does not hold every integer "
                "(give a uint64: uint64(hi) * 2^32 + uint64(lo), or intmax('uint64'))";
         return 0;
      }
      *v = (uint64_t)x;
      if ((double)*v != x) { *why = "is not an integer"; return 0; }
      return 1;
   }
   default:
      *why = "must be a uint64 (or another integer class) or a double holding an exact integer";
      return 0;
   }
}

static int dh_real_numeric(const mxArray *a)
{
   return mxIsNumeric(a) && !mxIsComplex(a) && !mxIsSparse(a);
}

static uint64_t dh_coord(const dh_cmd *c, const mxArray *a, const char *name, const char *id)
{
   uint64_t v = 0;
   const char *why = "must be a real scalar";
   char got[96] = "";
   /* MATLAB's integer arithmetic saturates. A counter kept in a narrow class stops at its
    * intmax (a uint8 stream per layer at 255, an int32 position at 2^31 - 1), and a value
    * moved off it afterwards no longer shows it: every later call draws a mask drawn
    * already. So the only integer class taken is uint64, which saturates only at the
    * stream's end: a Position of intmax('uint64') is refused (like the C generator, no call
    * starts at the stream's last position, 2^64 - 1), so a uint64 that stopped there never
    * draws. A double stops being exact at 2^53, refused in dh_uint. */
   mxClassID k = mxGetClassID(a);
   if (dh_real_numeric(a) && k != mxDOUBLE_CLASS && k != mxUINT64_CLASS) {
      snprintf(got, sizeof got, " (got a %s)", mxGetClassName(a));
      why = k == mxSINGLE_CLASS
               ? "must be a uint64 or a double: a single holds every integer only up to 2^24; give uint64(v)"
               : "must be a uint64 or a double: integer arithmetic in another class saturates at "
                 "its intmax, where a counter stops and draws one mask again and again; give uint64(v)";
   } else if (dh_real_numeric(a) && mxGetNumberOfElements(a) == 1 && dh_uint(a, 0, &v, &why)) {
      if (!(k == mxUINT64_CLASS && v == UINT64_MAX && strstr(name, "Position") != NULL)) return v;
      why = "is intmax('uint64'), the stream's last position, where uint64 addition stops "
            "(pos + numel(x) stays there: the same mask at every later step); no call starts there";
   }
   if (dh_real_numeric(a) && mxGetNumberOfElements(a) != 1) why = "must be a scalar";
   if (!dh_real_numeric(a))   /* say what it is: a logical true is no number here */
      snprintf(got, sizeof got, " (got a %s%s)", mxIsComplex(a) ? "complex " : mxIsSparse(a) ? "sparse " : "",
               mxGetClassName(a));
   snprintf(dh_msg, sizeof dh_msg, "%s: %s %s%s; Seed, Stream and Position are integers in "
            "[0, 2^64): a uint64, or a double holding an exact integer below 2^53", c->name, name, why, got);
   dh_fail(id, dh_msg);
   return 0;
}

static void dh_dims_text(char *buf, size_t len, const mwSize *d, mwSize nd);
static mxArray *dh_uint64_scalar(uint64_t v);

/* p, or a plan's P (name "plan.P", id dropouth:badPlan: a field edited by hand) */
static double dh_p(const dh_cmd *c, const mxArray *a, const char *name, const char *id)
{
   double p;
   if (!(mxIsDouble(a) || mxIsSingle(a)) || mxIsComplex(a) || mxIsSparse(a) ||
       mxGetNumberOfElements(a) != 1) {
      char size[96];   /* the size where that is the trouble: [0.1 0.2] is a double */
      dh_dims_text(size, sizeof size, mxGetDimensions(a), mxGetNumberOfDimensions(a));
      snprintf(dh_msg, sizeof dh_msg, "%s: %s must be a real double or single scalar in [0, 1] "
               "(got a %s %s%s)", c->name, name, size, mxIsComplex(a) ? "complex " : (mxIsSparse(a) ? "sparse " : ""),
               mxGetClassName(a));
      dh_fail(id, dh_msg);
   }
   p = mxIsSingle(a) ? (double)*(const float *)mxGetData(a) : *(const double *)mxGetData(a);
   if (!(p >= 0.0 && p <= 1.0)) {
      if (p != p) snprintf(dh_msg, sizeof dh_msg, "%s: %s must be in [0, 1], got NaN", c->name, name);
      else snprintf(dh_msg, sizeof dh_msg, "%s: %s must be in [0, 1], got %.17g", c->name, name, p);
      dh_fail(id, dh_msg);
   }
   return p;
}

/* ---- the rule: p and its draw width -------------------------------------------------- */

/* The default width, as the Python package's default_bits: the narrowest of 8 and 16 bits
 * whose realised p is within 0.1% of p (relative to min(p, 1 - p)), else 32. So the same
 * call without 'Bits' draws the same mask in MATLAB, Octave and Python. */
static int dh_default_bits(double p)
{
   static const dropout_bits widths[2] = { DROPOUT_BITS_8, DROPOUT_BITS_16 };
   double m = p < 1.0 - p ? p : 1.0 - p;
   int i;
   for (i = 0; i < 2; ++i) {
      dropout_rule r;
      if (dropout_rule_init(&r, p, widths[i]) == DROPOUT_OK) {
         double e = dropout_rule_p(&r) - p;
         if ((e < 0.0 ? -e : e) <= 1e-3 * m) return (int)widths[i];
      }
   }
   return 32;
}

static dropout_rule dh_rule(const dh_cmd *c, double p, int bits, int explicit_bits)
{
   dropout_rule r;
   int err = dropout_rule_init(&r, p, (dropout_bits)bits);
   if (err == DROPOUT_ERR_P_NEEDS_16 || err == DROPOUT_ERR_P_NEEDS_32) {
      /* the library refuses a p that the width realises more than 1% off (p or 1 - p): say
       * what it would have been, and the width that honours it */
      dropout_rule q;
      char got[64];
      if (dropout_rule_init_quantised(&q, p, (dropout_bits)bits) == DROPOUT_OK && dropout_rule_p(&q) > 0.0 &&
          dropout_rule_p(&q) < 1.0)
         snprintf(got, sizeof got, "p = %.9g, more than 1%% off", dropout_rule_p(&q));
      else
         snprintf(got, sizeof got, "%s", p < 0.5 ? "no dropout at all" : "dropping everything");
      snprintf(dh_msg, sizeof dh_msg, "%s: p = %.17g with %d-bit draws would be realised as %s: "
               "give 'Bits', %d (%s)", c->name, p, bits, got, err == DROPOUT_ERR_P_NEEDS_16 ? 16 : 32,
               explicit_bits ? "or leave 'Bits' out for the narrowest width that honours p" : "the default");
      dh_fail("dropouth:pNeedsMoreBits", dh_msg);
   }
   if (err == DROPOUT_ERR_P_UNREALISABLE) {
      snprintf(dh_msg, sizeof dh_msg, "%s: p = %.17g is too close to %s: even 32-bit draws realise it "
               "more than 1%% off (%s of 50 * 2^-32, about 1.2e-8, or more is always realised within 1%%; "
               "use p = %d exactly)", c->name, p, p < 0.5 ? "0" : "1", p < 0.5 ? "a p" : "a 1 - p", p < 0.5 ? 0 : 1);
      dh_fail("dropouth:badP", dh_msg);
   }
   if (err != DROPOUT_OK) {
      snprintf(dh_msg, sizeof dh_msg, "%s: %s", c->name, dropout_strerror(err));
      dh_fail("dropouth:badP", dh_msg);
   }
   return r;
}

/* ---- options: 'Seed', s, 'Stream', st, 'Position', pos, 'Bits', b --------------------- */

static int dh_is(const char *a, const char *b)
{
   for (; *a && *b; ++a, ++b) {
      char x = *a, y = *b;
      if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
      if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
      if (x != y) return 0;
   }
   return *a == *b;
}

/* a char array's text, whole: 0 where it does not fit `size` or holds a NUL (mxGetString
   stops there, and 'Seed' followed by a NUL and more must not pass for 'Seed') */
static int dh_name(const mxArray *a, char *name, mwSize size)
{
   return mxIsChar(a) && mxGetString(a, name, size) == 0 && strlen(name) == (size_t)mxGetNumberOfElements(a);
}

/* a draw width: 8, 16 or 32 as a double or an integer class (a single 16 is refused as a
 * single Seed is, so the message says the class) */
static int dh_bits(const dh_cmd *c, const mxArray *a, const char *name, const char *id)
{
   uint64_t b = 0;
   const char *why = "";
   char got[64] = "";
   const int kind_ok = dh_real_numeric(a) && mxGetNumberOfElements(a) == 1 && mxGetClassID(a) != mxSINGLE_CLASS;
   if (kind_ok && dh_uint(a, 0, &b, &why) && (b == 8 || b == 16 || b == 32)) return (int)b;
   if (!kind_ok) snprintf(got, sizeof got, " (got a %s)", mxGetClassName(a));
   snprintf(dh_msg, sizeof dh_msg, "%s: %s must be 8, 16 or 32, a double or an integer class (the draw "
            "width; leave it out for the narrowest that honours p)%s", c->name, name, got);
   dh_fail(id, dh_msg);
   return 0;
}

/* ---- a forward's next: a position with its width ------------------------------------- */

/* A position counts draws of its call's width (an 8-bit draw is a quarter of a stream word),
 * so a bare number handed from a call of one width to a call of another reads other words
 * than it meant: one counter passed through layers of p = 0.5 (8-bit draws) and p = 0.3
 * (16-bit) on one stream read, at each 8-bit call, words a 16-bit call had used. So the
 * forward's next is a struct that carries its width: next.Position counts draws of
 * next.Bits, and a call of another width given it as 'Position' starts at its first
 * position past every word those draws reached, as dropout_gen_plan does when a
 * generator's width changes (and Python's dropouth.Generator). */
static const char *const dh_next_fields[2] = { "Position", "Bits" };

static mxArray *dh_next_make(uint64_t pos, int bits)
{
   mxArray *next = mxCreateStructMatrix(1, 1, 2, (const char **)dh_next_fields);
   mxSetField(next, 0, "Position", dh_uint64_scalar(pos));
   mxSetField(next, 0, "Bits", mxCreateDoubleScalar((double)bits));
   return next;
}

static void dh_next_read(const dh_cmd *c, const mxArray *a, dh_opts *o)
{
   const mxArray *f[2];
   int i;
   if (!c->takes_p) {   /* the raw stream and the uniforms count words (or pairs): no draws */
      snprintf(dh_msg, sizeof dh_msg, "%s: Position must be a number here: a forward's next counts "
               "dropout draws, this call counts stream words%s", c->name,
               c->takes_class ? " (a double uniform two of them)" : "");
      dh_fail("dropouth:badPosition", dh_msg);
   }
   if (mxGetNumberOfElements(a) != 1 || mxGetNumberOfFields(a) != 2) {
      snprintf(dh_msg, sizeof dh_msg, "%s: a struct Position must be a forward's next, [y, mask, next] = "
               "dropouth.forward(...) (a 1x1 struct of Position and Bits)", c->name);
      dh_fail("dropouth:badPosition", dh_msg);
   }
   for (i = 0; i < 2; ++i) {
      f[i] = mxGetField(a, 0, dh_next_fields[i]);
      if (!f[i]) {
         snprintf(dh_msg, sizeof dh_msg, "%s: Position, a struct, has no field '%s': give a forward's "
                  "next unchanged", c->name, dh_next_fields[i]);
         dh_fail("dropouth:badPosition", dh_msg);
      }
   }
   o->pos = dh_coord(c, f[0], "next.Position", "dropouth:badPosition");
   o->pos_bits = dh_bits(c, f[1], "next.Bits", "dropouth:badPosition");
}

/* The call's position in its own width: a next of another width moves on as a C generator
 * does when its width changes (dropout_gen_plan: the first position past every word handed
 * out), by asking one resumed at next for an empty plan of this call's rule */
static void dh_position(const dh_cmd *c, dh_opts *o, const dropout_rule *rule)
{
   dropout_gen g;
   dropout_plan first;
   if (!o->pos_bits || o->pos_bits == rule->bits) return;
   if (dropout_gen_resume(&g, dropout_key_make(o->seed, o->stream), o->pos, (dropout_units)o->pos_bits) != DROPOUT_OK ||
       dropout_gen_plan(&g, rule, 0, &first) != DROPOUT_OK) {
      snprintf(dh_msg, sizeof dh_msg, "%s: next (position %llu of %d-bit draws) leaves no %d-bit "
               "position in the stream (2^64 draws of each width): use another 'Stream'", c->name,
               (unsigned long long)o->pos, o->pos_bits, rule->bits);
      dh_fail("dropouth:badPosition", dh_msg);
   }
   o->pos = first.pos;
   o->pos_bits = rule->bits;
}

/* Names are matched whole and case-insensitively; a name given twice takes its last value,
 * as MATLAB's inputParser does, so `f(x, p, defaults{:}, 'Position', pos)` overrides. */
static void dh_options(const dh_cmd *c, int n, const mxArray *const *a, dh_opts *o)
{
   int i = 0;
   char name[32];
   o->have_seed = o->have_pos = 0;
   o->bits = o->pos_bits = 0;
   o->seed = o->stream = o->pos = 0;
   o->cls = mxDOUBLE_CLASS;
   if (c->takes_class && n > 0 && dh_name(a[0], name, sizeof name) &&
       (dh_is(name, "single") || dh_is(name, "double"))) {
      o->cls = dh_is(name, "single") ? mxSINGLE_CLASS : mxDOUBLE_CLASS;
      i = 1;
   }
   for (; i < n; i += 2) {
      if (mxIsChar(a[i]) && !dh_name(a[i], name, sizeof name)) {
         snprintf(dh_msg, sizeof dh_msg, "%s: argument %d is an unknown option (a name of more than "
                  "%u characters, or with a NUL)", c->name, i + (c->takes_p ? 3 : 2), (unsigned)(sizeof name - 1));
         dh_fail("dropouth:badOption", dh_msg);
      }
      if (!mxIsChar(a[i])) {
         snprintf(dh_msg, sizeof dh_msg, "%s: argument %d must be an option name (%s), got a %s",
                  c->name, i + (c->takes_p ? 3 : 2),
                  c->takes_p ? "'Seed', 'Stream', 'Position', 'Bits'" : "'Seed', 'Stream', 'Position'",
                  mxGetClassName(a[i]));
         dh_fail("dropouth:badOption", dh_msg);
      }
      if (i + 1 >= n) {
         snprintf(dh_msg, sizeof dh_msg, "%s: option '%s' has no value", c->name, name);
         dh_fail("dropouth:badOption", dh_msg);
      }
      if (dh_is(name, "Seed")) {
         o->seed = dh_coord(c, a[i + 1], "Seed", "dropouth:badSeed");
         o->have_seed = 1;
      } else if (dh_is(name, "Stream")) {
         o->stream = dh_coord(c, a[i + 1], "Stream", "dropouth:badStream");
      } else if (dh_is(name, "Position")) {
         o->pos_bits = 0;
         if (mxIsStruct(a[i + 1])) dh_next_read(c, a[i + 1], o);
         else o->pos = dh_coord(c, a[i + 1], "Position", "dropouth:badPosition");
         o->have_pos = 1;
      } else if (dh_is(name, "Bits") && c->takes_p) {
         o->bits = dh_bits(c, a[i + 1], "Bits", "dropouth:badBits");
      } else {
         snprintf(dh_msg, sizeof dh_msg, "%s: unknown option '%s' (the options are %s)", c->name, name,
                  c->takes_p ? "'Seed', 'Stream', 'Position', 'Bits'" : "'Seed', 'Stream', 'Position'");
         dh_fail("dropouth:badOption", dh_msg);
      }
   }
   /* no default coordinates: a default would give every call the same mask */
   if (!o->have_seed) {
      snprintf(dh_msg, sizeof dh_msg, "%s: give 'Seed', s (and 'Position', pos): there is no "
               "default, since it would give every call the same mask", c->name);
      dh_fail("dropouth:missingSeed", dh_msg);
   }
   if (!o->have_pos) {
      snprintf(dh_msg, sizeof dh_msg, "%s: give 'Position', pos, the first stream position of this "
               "call (a layer's next call starts at pos + numel of this one)", c->name);
      dh_fail("dropouth:missingPosition", dh_msg);
   }
}

/* ---- arrays -------------------------------------------------------------------------- */

/* x or dy: a real, full single or double array of any size */
static void dh_data(const dh_cmd *c, const mxArray *x)
{
   const char *what = NULL;
   if (mxIsComplex(x)) what = "complex";
   else if (mxIsSparse(x)) what = "sparse";
   else if (!mxIsSingle(x) && !mxIsDouble(x)) what = mxGetClassName(x);
   if (what) {
      char hint[128] = "";
      if (!mxIsComplex(x) && !mxIsSparse(x))
         snprintf(hint, sizeof hint, " (convert it: single(%s) or double(%s); a gpuArray: gather(%s))",
                  c->data, c->data, c->data);
      snprintf(dh_msg, sizeof dh_msg, "%s: %s must be a real, full single or double array, got %s%s",
               c->name, c->data, what, hint);
      dh_fail(c->data_id, dh_msg);
   }
}

/* sz as zeros(sz) takes it: a vector of dimensions, a scalar n meaning n-by-n */
static mwSize *dh_size(const dh_cmd *c, const mxArray *a, mwSize *ndim)
{
   size_t k, n = mxGetNumberOfElements(a);
   mwSize *dims;
   if (!dh_real_numeric(a) || n < 1 || n > 32 ||
       (mxGetNumberOfDimensions(a) > 2 || (mxGetM(a) != 1 && mxGetN(a) != 1))) {
      snprintf(dh_msg, sizeof dh_msg, "%s: sz must be a size vector, as zeros(sz) takes it "
               "(a scalar n is n-by-n, [n 1] a column)", c->name);
      dh_fail("dropouth:badSize", dh_msg);
   }
   dims = (mwSize *)mxMalloc((n < 2 ? 2 : n) * sizeof *dims);
   for (k = 0; k < n; ++k) {
      uint64_t v = 0;
      const char *why = "";
      int ok;
      if (mxIsSingle(a)) {   /* zeros(single([2 3])) takes it too (a dimension, not a coordinate) */
         const float f = ((const float *)mxGetData(a))[k];
         ok = f >= 0.0f && f < 18446744073709551616.0f && (float)(uint64_t)f == f;   /* below 2^64: a cast that holds */
         if (ok) v = (uint64_t)f;
         else why = f < 0.0f ? "is negative" : f != f ? "is NaN" : f >= 18446744073709551616.0f ? "" : "is not an integer";
      } else if (mxIsDouble(a) && ((const double *)mxGetData(a))[k] >= 9007199254740992.0) {
         ok = 0;   /* 2^53 or more, Inf: no array has that many elements (dh_uint's hint is the Seed's) */
      } else {
         ok = dh_uint(a, k, &v, &why);
      }
      if (!ok || v > (uint64_t)(SIZE_MAX / 2)) {
         snprintf(dh_msg, sizeof dh_msg, "%s: sz(%u) %s; sz holds whole dimensions >= 0",
                  c->name, (unsigned)(k + 1), *why ? why : "is too large");
         dh_fail("dropouth:badSize", dh_msg);
      }
      dims[k] = (mwSize)v;
   }
   if (n == 1) { dims[1] = dims[0]; n = 2; }
   *ndim = (mwSize)n;
   return dims;
}

static size_t dh_numel(const dh_cmd *c, const mwSize *dims, mwSize ndim)
{
   size_t total = 1;
   mwSize k;
   for (k = 0; k < ndim; ++k) {
      size_t d = (size_t)dims[k];
      if (d != 0 && total > SIZE_MAX / 8 / d) {
         snprintf(dh_msg, sizeof dh_msg, "%s: sz has more elements than an array of doubles can "
                  "have (its bytes would pass SIZE_MAX)", c->name);
         dh_fail("dropouth:badSize", dh_msg);
      }
      total *= d;
   }
   return total;
}

/* the library's own checks: the position range has its identifier; anything else (which
 * the gateway's own checks should have caught first) is dropouth:library, with the
 * library's message. The calls set the FPU mode they need, so the process's own mode
 * (flush to zero, directed rounding) is no error. */
static void dh_check(const dh_cmd *c, int err)
{
   if (err == DROPOUT_OK) return;
   if (err == DROPOUT_ERR_RANGE) {
      snprintf(dh_msg, sizeof dh_msg, "%s: Position + the number of elements runs past the "
               "stream's 2^64 positions%s", c->name,
               c->takes_class ? " (uniform doubles: past 2^63, each takes two words)" : "");
      dh_fail("dropouth:badPosition", dh_msg);
   }
   snprintf(dh_msg, sizeof dh_msg, "%s: %s", c->name, dropout_strerror(err));
   dh_fail("dropouth:library", dh_msg);
}

static void dh_unpack(const uint8_t *packed, mxLogical *out, size_t n)
{
   size_t j;
   for (j = 0; j < n; ++j) out[j] = (mxLogical)((packed[j >> 3] >> (j & 7)) & 1u);
}

/* ---- the commands -------------------------------------------------------------------- */

static const dh_cmd dh_forward_cmd = { "dropouth.forward", "x", "dropouth:badX", 1, 0 };
static const dh_cmd dh_backward_cmd = { "dropouth.backward", "dy", "dropouth:badDy", 1, 0 };
static const dh_cmd dh_mask_cmd = { "dropouth.mask", "sz", "dropouth:badSize", 1, 0 };
static const dh_cmd dh_u32_cmd = { "dropouth.stream_u32", "sz", "dropouth:badSize", 0, 0 };
static const dh_cmd dh_uniform_cmd = { "dropouth.uniform", "sz", "dropouth:badSize", 0, 1 };
static const dh_cmd dh_realised_cmd = { "dropouth.realised_p", "p", "dropouth:badP", 1, 0 };

static void dh_nargs(const dh_cmd *c, int nrhs, int least, int nlhs, int most_out)
{
   if (nrhs < least) {
      snprintf(dh_msg, sizeof dh_msg, "%s: needs %s%s, then 'Seed', s, 'Position', pos (see help %s)",
               c->name, c->data, c->takes_p ? " and p" : "", c->name);
      dh_fail("dropouth:badArgs", dh_msg);
   }
   if (nlhs > most_out) {
      snprintf(dh_msg, sizeof dh_msg, "%s: at most %d output%s", c->name, most_out, most_out > 1 ? "s" : "");
      dh_fail("dropouth:badArgs", dh_msg);
   }
}

/* ---- the forward's plan: its coordinates, for the backward ---------------------------- */

/* [y, mask, next, plan] = dropouth.forward(...) gives plan; dropouth.backward(dy, plan)
 * takes the coordinates from it, so a backward cannot be handed the next step's position
 * (next), another width or another class of p by retyping them, and a dy of another size
 * than the forward's x (a transpose: the same numel, other positions) is refused. */
static const char *const dh_plan_fields[6] = { "Seed", "Stream", "Position", "P", "Bits", "Size" };

static mxArray *dh_uint64_scalar(uint64_t v)
{
   mxArray *a = mxCreateNumericMatrix(1, 1, mxUINT64_CLASS, mxREAL);
   *(uint64_t *)mxGetData(a) = v;
   return a;
}

static mxArray *dh_plan_make(const mxArray *x, const mxArray *p, const dh_opts *o, int bits)
{
   mxArray *plan = mxCreateStructMatrix(1, 1, 6, (const char **)dh_plan_fields);
   mwSize k, nd = mxGetNumberOfDimensions(x);
   mxArray *size = mxCreateDoubleMatrix(1, nd, mxREAL);
   for (k = 0; k < nd; ++k) ((double *)mxGetData(size))[k] = (double)mxGetDimensions(x)[k];
   mxSetField(plan, 0, "Seed", dh_uint64_scalar(o->seed));
   mxSetField(plan, 0, "Stream", dh_uint64_scalar(o->stream));
   mxSetField(plan, 0, "Position", dh_uint64_scalar(o->pos));
   mxSetField(plan, 0, "P", mxDuplicateArray(p));   /* as given: a single p is another rule */
   mxSetField(plan, 0, "Bits", mxCreateDoubleScalar((double)bits));
   mxSetField(plan, 0, "Size", size);
   return plan;
}

static void dh_dims_text(char *buf, size_t len, const mwSize *d, mwSize nd)
{
   mwSize k;
   size_t at = 0;
   buf[0] = 0;
   for (k = 0; k < nd && at + 24 < len; ++k)
      at += (size_t)snprintf(buf + at, len - at, k ? "x%lu" : "%lu", (unsigned long)d[k]);
}

/* dy and the plan: the options and p from the plan's fields, each checked as the options
 * are (a plan edited by hand gets the same refusals), and dy's size against plan.Size */
static double dh_plan_read(const dh_cmd *c, const mxArray *plan, const mxArray *dy, dh_opts *o)
{
   const mxArray *f[6], *sz;
   mwSize k, nd = mxGetNumberOfDimensions(dy);
   int i, same;
   double p;
   if (mxGetNumberOfElements(plan) != 1 || mxGetNumberOfFields(plan) != 6)
      dh_fail("dropouth:badPlan", "dropouth.backward: plan must be the fourth output of dropouth.forward, "
              "[y, mask, next, plan] = dropouth.forward(...) (a 1x1 struct of Seed, Stream, Position, P, Bits, Size)");
   for (i = 0; i < 6; ++i) {
      f[i] = mxGetField(plan, 0, dh_plan_fields[i]);
      if (!f[i]) {
         snprintf(dh_msg, sizeof dh_msg, "dropouth.backward: plan has no field '%s': give the fourth "
                  "output of dropouth.forward unchanged", dh_plan_fields[i]);
         dh_fail("dropouth:badPlan", dh_msg);
      }
   }
   o->seed = dh_coord(c, f[0], "plan.Seed", "dropouth:badPlan");
   o->stream = dh_coord(c, f[1], "plan.Stream", "dropouth:badPlan");
   o->pos = dh_coord(c, f[2], "plan.Position", "dropouth:badPlan");
   o->have_seed = o->have_pos = 1;
   o->pos_bits = 0;
   o->cls = mxDOUBLE_CLASS;
   p = dh_p(c, f[3], "plan.P", "dropouth:badPlan");
   o->bits = dh_bits(c, f[4], "plan.Bits", "dropouth:badPlan");
   sz = f[5];
   same = mxIsDouble(sz) && !mxIsComplex(sz) && !mxIsSparse(sz) && mxGetM(sz) == 1 && mxGetN(sz) == (size_t)nd;
   for (k = 0; same && k < nd; ++k) same = ((const double *)mxGetData(sz))[k] == (double)mxGetDimensions(dy)[k];
   if (!same) {
      char got[128], want[128] = "?";
      dh_dims_text(got, sizeof got, mxGetDimensions(dy), nd);
      if (mxIsDouble(sz) && !mxIsComplex(sz) && !mxIsSparse(sz) && mxGetM(sz) == 1) {
         mwSize w = (mwSize)mxGetN(sz), d[32];
         for (k = 0; k < w && k < 32; ++k) {
            double v = ((const double *)mxGetData(sz))[k];
            d[k] = v >= 0.0 && v < 1e18 ? (mwSize)v : 0;
         }
         dh_dims_text(want, sizeof want, d, w < 32 ? w : 32);
      }
      snprintf(dh_msg, sizeof dh_msg, "dropouth.backward: dy is %s, the forward's x was %s (plan.Size): "
               "element k of dy takes the draw of x(k), so dy must have x's size (not a transpose or a "
               "reshape)", got, want);
      dh_fail("dropouth:badDy", dh_msg);
   }
   return p;
}

/* forward and backward: y (or dx) of x's class and size; forward's mask is logical */
static void dh_dropout(const dh_cmd *c, int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs, int fwd)
{
   const mxArray *x;
   double p;
   dh_opts o;
   dropout_rule rule;
   dropout_plan plan;
   size_t n;
   uint8_t *packed = NULL;
   int single, err, bits;
   /* the backward's other form: dropouth.backward(dy, plan) */
   const int planned = !fwd && nrhs >= 2 && mxIsStruct(prhs[1]);
   dh_nargs(c, nrhs, 2, nlhs, fwd ? 4 : 1);
   x = prhs[0];
   dh_data(c, x);
   if (planned) {
      if (nrhs > 2)
         dh_fail("dropouth:badArgs", "dropouth.backward: with a plan, give no options: the plan holds the "
                 "forward's Seed, Stream, Position, p and Bits");
      p = dh_plan_read(c, prhs[1], x, &o);
   } else {
      p = dh_p(c, prhs[1], "p", "dropouth:badP");
      dh_options(c, nrhs - 2, prhs + 2, &o);
   }
   bits = o.bits ? o.bits : dh_default_bits(p);
   if (planned) {   /* P and Bits that no forward hands out together: the plan was edited */
      int e = dropout_rule_init(&rule, p, (dropout_bits)bits);
      if (e != DROPOUT_OK) {
         snprintf(dh_msg, sizeof dh_msg, "dropouth.backward: plan.P = %.17g with plan.Bits = %d is no plan "
                  "dropouth.forward hands out (%s): give its fourth output unchanged", p, bits, dropout_strerror(e));
         dh_fail("dropouth:badPlan", dh_msg);
      }
   }
   rule = dh_rule(c, p, bits, o.bits != 0);
   dh_position(c, &o, &rule);
   n = mxGetNumberOfElements(x);
   dh_check(c, dropout_plan_at(&plan, &rule, dropout_key_make(o.seed, o.stream),
                               dropout_pos_make(o.pos), (uint64_t)n));
   /* the forward's third output is where this layer's next call starts, with its width
    * (dh_next_make), so a training loop need not keep the count itself (the same position
    * twice is the same mask again) */
   if (fwd && nlhs > 2 && (uint64_t)n > UINT64_MAX - o.pos) {
      snprintf(dh_msg, sizeof dh_msg, "%s: this call uses the stream's last position: there is no "
               "next position to return (use another 'Stream')", c->name);
      dh_fail("dropouth:streamEnd", dh_msg);
   }
   single = mxIsSingle(x);
   /* every check is done: the outputs are made now and filled by one call each (the call
    * writes every element, so y need not be zeroed first) */
   plhs[0] = mxCreateUninitNumericArray(mxGetNumberOfDimensions(x), mxGetDimensions(x),
                                        single ? mxSINGLE_CLASS : mxDOUBLE_CLASS, mxREAL);
   if (fwd && nlhs > 1) packed = (uint8_t *)mxCalloc(n / 8 + 1, 1);
   if (n == 0) err = DROPOUT_OK;
   else if (fwd && single) err = dropout_replay_f32(&plan, n, (float *)mxGetData(plhs[0]), packed, (const float *)mxGetData(x));
   else if (fwd) err = dropout_replay_f64(&plan, n, (double *)mxGetData(plhs[0]), packed, (const double *)mxGetData(x));
   else if (single) err = dropout_backward_f32(&plan, n, (float *)mxGetData(plhs[0]), (const float *)mxGetData(x));
   else err = dropout_backward_f64(&plan, n, (double *)mxGetData(plhs[0]), (const double *)mxGetData(x));
   dh_check(c, err);
   if (packed) {
      plhs[1] = mxCreateLogicalArray(mxGetNumberOfDimensions(x), mxGetDimensions(x));
      dh_unpack(packed, mxGetLogicals(plhs[1]), n);
      mxFree(packed);
   }
   if (fwd && nlhs > 2) plhs[2] = dh_next_make(o.pos + (uint64_t)n, bits);
   if (fwd && nlhs > 3) plhs[3] = dh_plan_make(x, prhs[1], &o, bits);
}

static void dh_mask(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs)
{
   const dh_cmd *c = &dh_mask_cmd;
   mwSize ndim = 0, *dims;
   double p;
   dh_opts o;
   dropout_rule rule;
   dropout_plan plan;
   size_t n;
   uint8_t *packed;
   dh_nargs(c, nrhs, 2, nlhs, 1);
   dims = dh_size(c, prhs[0], &ndim);
   n = dh_numel(c, dims, ndim);
   p = dh_p(c, prhs[1], "p", "dropouth:badP");
   dh_options(c, nrhs - 2, prhs + 2, &o);
   rule = dh_rule(c, p, o.bits ? o.bits : dh_default_bits(p), o.bits != 0);
   dh_position(c, &o, &rule);
   dh_check(c, dropout_plan_at(&plan, &rule, dropout_key_make(o.seed, o.stream),
                               dropout_pos_make(o.pos), (uint64_t)n));
   plhs[0] = mxCreateLogicalArray(ndim, dims);
   packed = (uint8_t *)mxCalloc(n / 8 + 1, 1);
   if (n) dh_check(c, dropout_mask(&plan, n, packed));
   dh_unpack(packed, mxGetLogicals(plhs[0]), n);
   mxFree(packed);
   mxFree(dims);
}

/* the raw stream and the uniforms: word (or double) Position + j at linear index j + 1 */
static void dh_fill(const dh_cmd *c, int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs)
{
   mwSize ndim = 0, *dims;
   dh_opts o;
   size_t n;
   mxClassID cls;
   void *out;
   dropout_key key;
   dropout_pos first;
   const uint64_t last_f64 = (UINT64_C(1) << 63) - 1;
   dh_nargs(c, nrhs, 1, nlhs, 1);
   dims = dh_size(c, prhs[0], &ndim);
   n = dh_numel(c, dims, ndim);
   dh_options(c, nrhs - 1, prhs + 1, &o);
   key = dropout_key_make(o.seed, o.stream);
   first = dropout_pos_make(o.pos);
   cls = c->takes_class ? o.cls : mxUINT32_CLASS;
   /* positions Position .. Position + n - 1 must exist (uniform doubles: below 2^63, two words
    * each): checked before the output is made, so a refused call allocates nothing */
   if (n && (n - 1 > (cls == mxDOUBLE_CLASS ? last_f64 : UINT64_MAX) ||
             o.pos > (cls == mxDOUBLE_CLASS ? last_f64 : UINT64_MAX) - (uint64_t)(n - 1)))
      dh_check(c, DROPOUT_ERR_RANGE);
   plhs[0] = mxCreateUninitNumericArray(ndim, dims, cls, mxREAL);   /* every element is written */
   out = mxGetData(plhs[0]);
   if (n == 0) {
      /* nothing to draw */
   } else if (cls == mxUINT32_CLASS) {
      dh_check(c, dropout_fill_u32(key, first, (uint32_t *)out, n));
   } else if (cls == mxSINGLE_CLASS) {
      dh_check(c, dropout_fill_uniform_f32(key, first, (float *)out, n));
   } else {
      dh_check(c, dropout_fill_uniform_f64(key, first, (double *)out, n));
   }
   mxFree(dims);
}

/* [q, bits] = dropouth.realised_p(p, 'Bits', b): the p the draws realise, and the width */
static void dh_realised(int nlhs, mxArray **plhs, int nrhs, const mxArray **prhs)
{
   const dh_cmd *c = &dh_realised_cmd;
   double p;
   int i, bits = 0;
   dropout_rule rule;
   dh_nargs(c, nrhs, 1, nlhs, 2);
   p = dh_p(c, prhs[0], "p", "dropouth:badP");
   for (i = 1; i < nrhs; i += 2) {
      char name[32];
      if (!dh_name(prhs[i], name, sizeof name) || !dh_is(name, "Bits") ||
          i + 1 >= nrhs)
         dh_fail("dropouth:badOption", "dropouth.realised_p: the one option is 'Bits', b");
      bits = dh_bits(c, prhs[i + 1], "Bits", "dropouth:badBits");
   }
   rule = dh_rule(c, p, bits ? bits : dh_default_bits(p), bits != 0);
   if (!bits) bits = dh_default_bits(p);
   plhs[0] = mxCreateDoubleScalar(dropout_rule_p(&rule));
   if (nlhs > 1) plhs[1] = mxCreateDoubleScalar((double)bits);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
   char cmd[24], *slash;
   const mxArray **a = prhs + 1;
   if (nrhs < 1 || !mxIsChar(prhs[0]) || mxGetString(prhs[0], cmd, sizeof cmd) != 0)
      dh_fail("dropouth:badCommand", "dropouth_mex is the gateway of the +dropouth package: "
              "call dropouth.forward, dropouth.backward, dropouth.mask, ... (help dropouth)");
   /* "forward/3": the command and the protocol of the .m file that sent it (0.9.0's sent
    * "forward" alone) */
   slash = strchr(cmd, '/');
   if (!slash || strtol(slash + 1, NULL, 10) != DH_PROTOCOL) {
      snprintf(dh_msg, sizeof dh_msg, "this gateway (built for the package's protocol %d) and the "
               "+dropouth files that called it (%s%s) come from different versions: run dropouth_build "
               "(or make octave) in the checkout whose matlab/ folder is on the path", DH_PROTOCOL,
               slash ? "protocol " : "no protocol: 0.9.0", slash ? slash + 1 : "");
      dh_fail("dropouth:staleBuild", dh_msg);
   }
   *slash = 0;
   nrhs -= 1;   /* the command's own arguments, a[0 .. nrhs - 1] */
   if (strcmp(cmd, "forward") == 0) dh_dropout(&dh_forward_cmd, nlhs, plhs, nrhs, a, 1);
   else if (strcmp(cmd, "backward") == 0) dh_dropout(&dh_backward_cmd, nlhs, plhs, nrhs, a, 0);
   else if (strcmp(cmd, "mask") == 0) dh_mask(nlhs, plhs, nrhs, a);
   else if (strcmp(cmd, "stream_u32") == 0) dh_fill(&dh_u32_cmd, nlhs, plhs, nrhs, a);
   else if (strcmp(cmd, "uniform") == 0) dh_fill(&dh_uniform_cmd, nlhs, plhs, nrhs, a);
   else if (strcmp(cmd, "realised_p") == 0) dh_realised(nlhs, plhs, nrhs, a);
   else if (strcmp(cmd, "version") == 0) plhs[0] = mxCreateString(DROPOUT_VERSION_STRING);
   else dh_fail("dropouth:badCommand", "dropouth_mex: unknown command (call the dropouth.* functions)");
}
