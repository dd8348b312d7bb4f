/* test_tutorial_picture.c - the Philox round drawn in docs/TUTORIAL.md section 3 is wired
   like the code.

   The picture is the tutorial's only drawing, and it was once wrong (wires ending at the
   wrong word, an output nobody fed). This test reads it back as a circuit and runs it:

      labels       c0 c1 c2 c3 k0 k1 (inputs), hi0 lo0 hi1 lo1 (multiplier halves),
                   c0' c1' c2' c3' (outputs)
      [x HEX]      a multiplier: its input is the wire on top, its halves are the hi/lo
                   labels right under it
      ( ^ )        an XOR: inputs arrive from above and the sides, the output leaves below
      | - +        wires; '+' joins, a '|' inside a '-' run (or a '-' inside a '|' run) is
                   a crossing, not a joint

   Every wire must join exactly two things. The outputs it computes for random counters
   and keys must equal one round of dropout_philox4x32_rounds. The table above the picture
   (its "mix" row) is read and run the same way. */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TUTORIAL
#define TUTORIAL "docs/TUTORIAL.md"
#endif
#define MARK "<!-- picture: philox_round -->"
enum { ROWS = 40, COLS = 120, MAXT = 64, MAXA = 16 };

typedef struct terminal {
   char kind;            /* 'L' label, 'X' xor, 'M' multiplier */
   char name[16];        /* label text */
   int row, c0, c1;      /* span on one row */
   uint32_t mult;        /* 'M' */
   int nat, at_comp[MAXA];
   char at_side[MAXA];   /* 't' wire above, 'b' below, 's' beside */
} terminal;

static char grid[ROWS][COLS + 3];
static int nrows;
static int owner[ROWS][COLS + 3];   /* terminal index, -1 none */
static int parent[ROWS * (COLS + 3)];
static terminal term[MAXT];
static int nterm;
static char why[256];

static int find(int a) { while (parent[a] != a) a = parent[a] = parent[parent[a]]; return a; }
static void unite(int a, int b) { parent[find(a)] = find(b); }
static int id(int r, int c) { return r * (COLS + 3) + c; }
static char at(int r, int c) { return r < 0 || r >= nrows || c < 0 || c >= COLS ? ' ' : grid[r][c]; }
static int is_wire(char ch) { return ch == '|' || ch == '-' || ch == '+'; }

/* Reads the ```text block after MARK into grid; 0 on success. */
static int load(void)
{
   FILE *f = fopen(TUTORIAL, "r");
   char line[512];
   int state = 0;
   if (!f) { snprintf(why, sizeof why, "cannot open %s", TUTORIAL); return 1; }
   while (fgets(line, sizeof line, f)) {
      size_t len = strcspn(line, "\r\n");
      line[len] = 0;
      if (state == 0 && !strcmp(line, MARK)) state = 1;
      else if (state == 1) state = strcmp(line, "```text") ? 0 : 2;
      else if (state == 2) {
         if (!strcmp(line, "```")) { state = 3; break; }
         if (nrows == ROWS || len > COLS) { snprintf(why, sizeof why, "picture too large"); fclose(f); return 1; }
         memset(grid[nrows], ' ', COLS);
         memcpy(grid[nrows], line, len);
         ++nrows;
      }
   }
   fclose(f);
   if (state != 3) { snprintf(why, sizeof why, "no ```text block after %s in %s", MARK, TUTORIAL); return 1; }
   return 0;
}

static int add_terminal(char kind, int r, int c0, int c1)
{
   terminal *t = &term[nterm];
   int c;
   if (nterm == MAXT) return -1;
   memset(t, 0, sizeof *t);
   t->kind = kind; t->row = r; t->c0 = c0; t->c1 = c1;
   for (c = c0; c <= c1; ++c) owner[r][c] = nterm;
   return nterm++;
}

/* Splits the grid into wires and terminals; 0 on success. */
static int parse(void)
{
   int r, c;
   for (r = 0; r < ROWS; ++r) for (c = 0; c < COLS + 3; ++c) owner[r][c] = -1;
   for (r = 0; r < nrows; ++r) {
      for (c = 0; c < COLS; ++c) {
         char ch = grid[r][c];
         int e, k;
         if (ch == ' ' || is_wire(ch)) continue;
         if (ch == '(' || ch == '[') {
            char close = ch == '(' ? ')' : ']';
            for (e = c + 1; e < COLS && grid[r][e] != close; ++e) {}
            if (e == COLS) { snprintf(why, sizeof why, "row %d: unclosed '%c'", r + 1, ch); return 1; }
            k = add_terminal(ch == '(' ? 'X' : 'M', r, c, e);
            if (k < 0) { snprintf(why, sizeof why, "too many parts"); return 1; }
            if (ch == '(') {
               char inner[32];
               int n = e - c - 1;
               if (n < 1 || n >= (int)sizeof inner) { snprintf(why, sizeof why, "row %d: empty XOR", r + 1); return 1; }
               memcpy(inner, &grid[r][c + 1], (size_t)n);
               inner[n] = 0;
               if (strspn(inner, " ^") != (size_t)n || !strchr(inner, '^')) {
                  snprintf(why, sizeof why, "row %d: '(%s)' is not an XOR", r + 1, inner);
                  return 1;
               }
            } else {
               char *end;
               const char *x = memchr(&grid[r][c], 'x', (size_t)(e - c));
               unsigned long m = x ? strtoul(x + 1, &end, 16) : 0;
               if (!x || m == 0 || m > 0xFFFFFFFFul) {
                  snprintf(why, sizeof why, "row %d: multiplier without 'x HEX'", r + 1);
                  return 1;
               }
               term[k].mult = (uint32_t)m;
            }
            c = e;
            continue;
         }
         for (e = c; e + 1 < COLS && grid[r][e + 1] != ' ' && !is_wire(grid[r][e + 1]); ++e) {}
         if (e - c + 1 >= (int)sizeof term[0].name) { snprintf(why, sizeof why, "row %d: long label", r + 1); return 1; }
         k = add_terminal('L', r, c, e);
         if (k < 0) { snprintf(why, sizeof why, "too many parts"); return 1; }
         memcpy(term[k].name, &grid[r][c], (size_t)(e - c + 1));
         c = e;
      }
   }
   return 0;
}

static void attach(int r, int c, int tr, int tc, char side)
{
   int k = owner[tr][tc], i;
   terminal *t;
   if (k < 0) return;
   t = &term[k];
   for (i = 0; i < t->nat; ++i)
      if (find(t->at_comp[i]) == find(id(r, c))) return;
   if (t->nat < MAXA) { t->at_comp[t->nat] = id(r, c); t->at_side[t->nat] = side; ++t->nat; }
}

/* Joins a wire cell to its neighbour in direction (dr, dc), jumping one crossing. */
static void link(int r, int c, int dr, int dc)
{
   int vertical = dr != 0;
   char n = at(r + dr, c + dc);
   if (n == '+' || (vertical ? n == '|' : n == '-')) { unite(id(r, c), id(r + dr, c + dc)); return; }
   if (vertical ? n == '-' : n == '|') {   /* a crossing: the wire passes behind */
      char m = at(r + 2 * dr, c + 2 * dc);
      if (m == '+' || m == n) return;      /* no: it would end on the other wire */
      if (vertical ? m == '|' : m == '-') unite(id(r, c), id(r + 2 * dr, c + 2 * dc));
      else if (m != ' ') attach(r, c, r + 2 * dr, c + 2 * dc, dr > 0 ? 't' : dr < 0 ? 'b' : 's');
      return;
   }
   if (n != ' ' && owner[r + dr][c + dc] >= 0)
      attach(r, c, r + dr, c + dc, dr > 0 ? 't' : dr < 0 ? 'b' : 's');
}

static void wire_up(void)
{
   int r, c;
   for (r = 0; r < ROWS * (COLS + 3); ++r) parent[r] = r;
   for (r = 0; r < nrows; ++r)
      for (c = 0; c < COLS; ++c) {
         char ch = grid[r][c];
         if (ch == '|' || ch == '+') { link(r, c, -1, 0); link(r, c, 1, 0); }
         if (ch == '-' || ch == '+') { link(r, c, 0, -1); link(r, c, 0, 1); }
      }
}

static int find_label(const char *name)
{
   int k;
   for (k = 0; k < nterm; ++k)
      if (term[k].kind == 'L' && !strcmp(term[k].name, name)) return k;
   return -1;
}

/* The terminal at the other end of wire `comp` from terminal `from`. */
static int other_end(int comp, int from)
{
   int k, i, found = -1, count = 0;
   for (k = 0; k < nterm; ++k)
      for (i = 0; i < term[k].nat; ++i)
         if (find(term[k].at_comp[i]) == find(comp) && k != from) { found = k; ++count; }
   if (count != 1) {
      if (!why[0]) snprintf(why, sizeof why, "a wire from row %d col %d joins %d things besides it, not 1",
                            term[from].row + 1, term[from].c0 + 1, count);
      return -1;
   }
   return found;
}

typedef struct inputs { uint32_t c[4], k[2]; } inputs;

/* Value of terminal k (entered from wire `via`, -1 for an output label's own wire). */
static int eval(int k, int via, const inputs *in, uint32_t *v, int depth)
{
   terminal *t = &term[k];
   int i;
   if (depth > 16) { snprintf(why, sizeof why, "the picture has a loop"); return 1; }
   if (t->kind == 'L') {
      const char *s = t->name;
      if (s[0] == 'c' && s[1] >= '0' && s[1] <= '3' && !s[2]) { *v = in->c[s[1] - '0']; return 0; }
      if (s[0] == 'k' && (s[1] == '0' || s[1] == '1') && !s[2]) { *v = in->k[s[1] - '0']; return 0; }
      if ((!strncmp(s, "hi", 2) || !strncmp(s, "lo", 2)) && s[2] && !s[3]) {
         int m = t->row > 0 ? owner[t->row - 1][t->c0] : -1;   /* the multiplier above */
         uint32_t x, hi, lo;
         if (m < 0 || term[m].kind != 'M') m = t->row > 0 ? owner[t->row - 1][t->c1] : -1;
         if (m < 0 || term[m].kind != 'M') { snprintf(why, sizeof why, "'%s' is not under a multiplier", s); return 1; }
         for (i = 0; i < term[m].nat && term[m].at_side[i] != 't'; ++i) {}
         if (i == term[m].nat) { snprintf(why, sizeof why, "a multiplier has no input"); return 1; }
         {
            int src = other_end(term[m].at_comp[i], m);
            if (src < 0 || eval(src, term[m].at_comp[i], in, &x, depth + 1)) return 1;
         }
         lo = dropout__mulhilo(term[m].mult, x, &hi);
         *v = s[0] == 'h' ? hi : lo;
         return 0;
      }
      if (via >= 0) { snprintf(why, sizeof why, "a wire ends at '%s', which is not an input", s); return 1; }
      for (i = 0; i < t->nat && t->at_side[i] != 't'; ++i) {}
      if (i == t->nat) { snprintf(why, sizeof why, "nothing reaches '%s'", s); return 1; }
      {
         int src = other_end(t->at_comp[i], k);
         return src < 0 ? 1 : eval(src, t->at_comp[i], in, v, depth + 1);
      }
   }
   if (t->kind == 'X') {
      uint32_t acc = 0, x;
      int n = 0;
      for (i = 0; i < t->nat; ++i) {
         int src;
         if (via >= 0 && find(t->at_comp[i]) == find(via)) {
            if (t->at_side[i] != 'b') { snprintf(why, sizeof why, "an XOR's output does not leave below"); return 1; }
            continue;
         }
         if (t->at_side[i] == 'b') { snprintf(why, sizeof why, "an XOR has two outputs"); return 1; }
         src = other_end(t->at_comp[i], k);
         if (src < 0 || eval(src, t->at_comp[i], in, &x, depth + 1)) return 1;
         acc ^= x;
         ++n;
      }
      if (n < 2) { snprintf(why, sizeof why, "an XOR with %d input", n); return 1; }
      *v = acc;
      return 0;
   }
   snprintf(why, sizeof why, "a multiplier is wired to an output directly");
   return 1;
}

static uint64_t rng_next(uint64_t *s)   /* splitmix64: test inputs only */
{
   uint64_t z = (*s += 0x9E3779B97F4A7C15u);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
   return z ^ (z >> 31);
}

static void random_inputs(uint64_t *s, inputs *in)
{
   uint64_t a = rng_next(s), b = rng_next(s), c = rng_next(s);
   in->c[0] = (uint32_t)a; in->c[1] = (uint32_t)(a >> 32);
   in->c[2] = (uint32_t)b; in->c[3] = (uint32_t)(b >> 32);
   in->k[0] = (uint32_t)c; in->k[1] = (uint32_t)(c >> 32);
}

static void test_picture(void)
{
   static const char *outs[4] = {"c0'", "c1'", "c2'", "c3'"};
   uint64_t s = 14;
   int trial, j, ok = !load() && !parse();
   CHECK(ok, "%s", why);
   if (ok) {
      wire_up();
      for (j = 0; j < 4; ++j) CHECK(find_label(outs[j]) >= 0, "the picture has no output label %s", outs[j]);
      for (trial = 0; trial < 1000 && ok; ++trial) {
         inputs in;
         uint32_t want[4], got;
         random_inputs(&s, &in);
         dropout_philox4x32_rounds(1, in.c, in.k, want);
         for (j = 0; j < 4 && ok; ++j) {
            int k = find_label(outs[j]);
            if (k < 0) { ok = 0; break; }
            why[0] = 0;
            if (eval(k, -1, &in, &got, 0)) { CHECK(0, "%s: %s", outs[j], why); ok = 0; }
            else if (got != want[j]) {
               CHECK(0, "the picture's %s = %08x, one Philox round gives %08x", outs[j], (unsigned)got, (unsigned)want[j]);
               ok = 0;
            }
         }
      }
   }
   case_end("tutorial: the Philox round picture is wired like dropout_philox4x32_rounds");
}

/* The table's mix row: "`c0' = hi1 ^ c1 ^ k0`, `c1' = lo1`, ..." */
static void test_table(void)
{
   FILE *f = fopen(TUTORIAL, "r");
   char line[512], row[512] = "";
   uint64_t s = 41;
   int trial, j;
   if (f) {
      while (fgets(line, sizeof line, f))
         if (!strncmp(line, "| mix |", 7)) { strcpy(row, line); break; }
      fclose(f);
   }
   CHECK(row[0], "no '| mix |' row in %s", TUTORIAL);
   for (trial = 0; trial < 100 && row[0]; ++trial) {
      inputs in;
      uint32_t want[4], hi0, hi1, lo0, lo1;
      random_inputs(&s, &in);
      dropout_philox4x32_rounds(1, in.c, in.k, want);
      lo0 = dropout__mulhilo(DROPOUT_PHILOX_M0, in.c[0], &hi0);
      lo1 = dropout__mulhilo(DROPOUT_PHILOX_M1, in.c[2], &hi1);
      for (j = 0; j < 4; ++j) {
         char key[8];
         const char *p;
         uint32_t v = 0;
         int terms = 0;
         snprintf(key, sizeof key, "`c%d' = ", j);
         p = strstr(row, key);
         if (!p) { CHECK(0, "the mix row does not define c%d'", j); break; }
         p += strlen(key);
         while (*p && *p != '`') {
            char tok[8];
            int n = 0;
            while (*p == ' ' || *p == '^') ++p;
            while (*p && *p != ' ' && *p != '`' && n < 7) tok[n++] = *p++;
            tok[n] = 0;
            if (!n) break;
            ++terms;
            if (!strcmp(tok, "hi0")) v ^= hi0; else if (!strcmp(tok, "lo0")) v ^= lo0;
            else if (!strcmp(tok, "hi1")) v ^= hi1; else if (!strcmp(tok, "lo1")) v ^= lo1;
            else if (tok[0] == 'c' && tok[1] >= '0' && tok[1] <= '3' && !tok[2]) v ^= in.c[tok[1] - '0'];
            else if (tok[0] == 'k' && (tok[1] == '0' || tok[1] == '1') && !tok[2]) v ^= in.k[tok[1] - '0'];
            else { CHECK(0, "the mix row names '%s'", tok); terms = -100; }
         }
         CHECK(terms > 0 && v == want[j], "the mix row's c%d' = %08x, one round gives %08x", j, (unsigned)v, (unsigned)want[j]);
      }
   }
   case_end("tutorial: the Philox table's mix row matches dropout_philox4x32_rounds");
}

int main(void)
{
   test_picture();
   test_table();
   return check_exit();
}
