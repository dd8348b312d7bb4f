/* mpi_tensor_parallel.c - tensor parallelism over Open MPI ranks: a layer's activation split
   by columns, each rank calling dropout.h on its slice, gives the unsplit call's bits.

   mpicc -std=c99 -O2 -I. tests/mpi/mpi_tensor_parallel.c && mpirun -np R ./a.out   (R = 1..4+)

   The activation is X (ROWS, WIDTH), row-major, and one unsplit call over all of it puts
   element (b, c) at stream position off + b*WIDTH + c. Rank r holds columns [c0, c1), stored
   as its own row-major (ROWS, c1 - c0) slice: a column split is not one contiguous range of
   positions, so the rank makes one call per row, at offset off + b*WIDTH + c0. (A layout
   that stores each rank's slice at positions of its own would need no per-row calls, but
   then the mask would change with the split: the positions must be the unsplit tensor's.
   The 1.0 descriptor runs the slice in one call at those positions, with position strides
   {WIDTH, 1}: tests/api/test_position_strides.c. This test keeps the 0.1 calls.)

   Rank 0 gathers every slice's output, bit-packed mask and mask-free gradient and compares
   them with its own unsplit call: bytes for the values, bit (b, c) of the global mask
   against bit c - c0 of row b of rank r's per-row mask. WIDTH is odd, so the slices'
   edges fall inside mask bytes for every R > 1. Only rank 0 prints PASS/FAIL lines. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

enum { ROWS = 7, WIDTH = 1001, N = ROWS * WIDTH, MBYTES = (WIDTH + 7) / 8 };

/* one signature for the four dtypes: buffers as bytes */
typedef int (*fwd_fn)(void *y, uint8_t *mask, const void *x, size_t n, double p, int bits,
                      uint64_t seed, uint64_t stream, uint64_t offset);
typedef int (*bwd_fn)(void *dx, const void *dy, size_t n, double p, int bits, uint64_t seed,
                      uint64_t stream, uint64_t offset);

#define DTYPE(suffix, T)                                                                        \
   static int fwd_##suffix(void *y, uint8_t *mask, const void *x, size_t n, double p, int bits, \
                           uint64_t seed, uint64_t stream, uint64_t offset)                     \
   { return dropout_v0_forward_##suffix((T *)y, mask, (const T *)x, n, p, bits, seed, stream, offset); } \
   static int bwd_##suffix(void *dx, const void *dy, size_t n, double p, int bits, uint64_t seed, \
                           uint64_t stream, uint64_t offset)                                    \
   { return dropout_v0_backward_##suffix((T *)dx, (const T *)dy, n, p, bits, seed, stream, offset); }
DTYPE(f32, float)
DTYPE(f64, double)
DTYPE(f16, uint16_t)
DTYPE(bf16, uint16_t)

typedef struct Dtype { const char *name; size_t size; fwd_fn fwd; bwd_fn bwd; } Dtype;

/* element i of a test tensor: a uniform in [-2, 2) from the library's stream, as the dtype */
static void fill(uint8_t *out, const Dtype *t, uint64_t word)
{
   static float u[N];
   size_t i;
   dropout_v0_fill_uniform_f32(u, N, 99, 7, word);
   for (i = 0; i < N; ++i) {
      float f = 4.0f * u[i] - 2.0f;
      if (t->size == 4) memcpy(out + 4 * i, &f, 4);
      else if (t->size == 8) { double d = f; memcpy(out + 8 * i, &d, 8); }
      else {
         uint16_t h;
         if (!strcmp(t->name, "f16")) h = dropout_f32_to_f16(f);
         else { uint32_t b; memcpy(&b, &f, 4); h = (uint16_t)(b >> 16); }
         memcpy(out + 2 * i, &h, 2);
      }
   }
}

static int bit(const uint8_t *m, size_t i) { return (m[i / 8] >> (i % 8)) & 1; }

static int slice(int n, int r, int R) { return (int)((long long)n * r / R); }

int main(int argc, char **argv)
{
   static const Dtype types[4] = {
      {"f32", 4, fwd_f32, bwd_f32}, {"f64", 8, fwd_f64, bwd_f64},
      {"f16", 2, fwd_f16, bwd_f16}, {"bf16", 2, fwd_bf16, bwd_bf16}};
   static const int widths[3] = {8, 16, 32};
   const double p = 0.3;
   const uint64_t seed = 0x5eed, stream = 3, off = (1ull << 40) + 12345;   /* odd offset */
   static uint8_t x[N * 8], dy[N * 8], y[N * 8], dx[N * 8], mask[N / 8 + 1];  /* unsplit */
   static uint8_t lx[N * 8], ldy[N * 8], ly[N * 8], ldx[N * 8], lmask[ROWS * MBYTES];
   static uint8_t gy[N * 8], gdx[N * 8], gmask[ROWS * MBYTES * 64];   /* rank 0: gathered */
   int rank, R, t, w, q, *counts, *displs, *mcounts, *mdispls;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &R);
   if (R > 64) {
      if (rank == 0) printf("FAIL tensor parallel: at most 64 ranks (got %d)\n", R);
      MPI_Finalize();
      return 1;
   }
   counts = (int *)malloc(4 * (size_t)R * sizeof(int));
   if (!counts) MPI_Abort(MPI_COMM_WORLD, 1);
   displs = counts + R; mcounts = displs + R; mdispls = mcounts + R;

   for (t = 0; t < 4; ++t) {
      const Dtype *T = &types[t];
      const size_t es = T->size;
      const int c0 = slice(WIDTH, rank, R), c1 = slice(WIDTH, rank + 1, R), lw = c1 - c0;
      const int lmb = (lw + 7) / 8;   /* mask bytes per row of this rank's slice */
      char name[192];
      fill(x, T, 0);
      fill(dy, T, N);
      for (w = 0; w < 3; ++w) {
         const int bits = widths[w];
         int b, err = 0;
         /* this rank's columns, one call per row at the row's global position */
         for (b = 0; b < ROWS; ++b) {
            memcpy(lx + (size_t)(b * lw) * es, x + ((size_t)b * WIDTH + (size_t)c0) * es, (size_t)lw * es);
            memcpy(ldy + (size_t)(b * lw) * es, dy + ((size_t)b * WIDTH + (size_t)c0) * es, (size_t)lw * es);
         }
         for (b = 0; b < ROWS; ++b) {
            const uint64_t at = off + (uint64_t)b * WIDTH + (uint64_t)c0;
            err |= T->fwd(ly + (size_t)(b * lw) * es, lmask + b * lmb, lx + (size_t)(b * lw) * es,
                          (size_t)lw, p, bits, seed, stream, at);
            err |= T->bwd(ldx + (size_t)(b * lw) * es, ldy + (size_t)(b * lw) * es, (size_t)lw, p,
                          bits, seed, stream, at);
         }
         for (q = 0; q < R; ++q) {
            int a = slice(WIDTH, q, R), e = slice(WIDTH, q + 1, R);
            counts[q] = ROWS * (e - a) * (int)es;
            displs[q] = ROWS * a * (int)es;          /* rank q's slice, whole, one after another */
            mcounts[q] = ROWS * ((e - a + 7) / 8);
            mdispls[q] = q * ROWS * MBYTES;
         }
         MPI_Gatherv(ly, counts[rank], MPI_BYTE, gy, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
         MPI_Gatherv(ldx, counts[rank], MPI_BYTE, gdx, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
         MPI_Gatherv(lmask, mcounts[rank], MPI_BYTE, gmask, mcounts, mdispls, MPI_BYTE, 0, MPI_COMM_WORLD);
         MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
         if (rank != 0) continue;

         memset(mask, 0, sizeof mask);
         CHECK(T->fwd(y, mask, x, N, p, bits, seed, stream, off) == DROPOUT_OK, "unsplit forward failed");
         CHECK(T->bwd(dx, dy, N, p, bits, seed, stream, off) == DROPOUT_OK, "unsplit backward failed");
         CHECK(err == 0, "a rank's call returned an error");
         for (q = 0; q < R; ++q) {
            const int a = slice(WIDTH, q, R), e = slice(WIDTH, q + 1, R), qw = e - a, qmb = (qw + 7) / 8;
            const uint8_t *qy = gy + (size_t)displs[q], *qdx = gdx + (size_t)displs[q];
            const uint8_t *qm = gmask + mdispls[q];
            int c;
            for (b = 0; b < ROWS; ++b)
               for (c = 0; c < qw; ++c) {
                  const size_t g = (size_t)b * WIDTH + (size_t)(a + c), l = (size_t)(b * qw + c);
                  CHECK(!memcmp(qy + l * es, y + g * es, es), "output (%d, %d) from rank %d differs", b, a + c, q);
                  CHECK(!memcmp(qdx + l * es, dx + g * es, es), "gradient (%d, %d) from rank %d differs", b, a + c, q);
                  CHECK(bit(qm + b * qmb, (size_t)c) == bit(mask, g), "mask bit (%d, %d) from rank %d differs", b, a + c, q);
               }
         }
      }
      if (rank == 0) {
         snprintf(name, sizeof name, "tensor parallel %s, %d rank%s, %d x %d split by columns: "
                  "output, mask and gradient = the unsplit call (8/16/32-bit draws)",
                  T->name, R, R == 1 ? "" : "s", ROWS, WIDTH);
         case_end(name);
      }
   }
   free(counts);
   MPI_Finalize();
   return rank == 0 ? check_exit() : 0;
}
