/* A file built with gcc's -fsingle-precision-constant (common on microcontrollers with a
   float FPU) that calls the inline building blocks: the implementation file refuses the
   flag, but a user's file may use it, and the blocks are compiled there. Their double
   constants are written as integers divided exactly, so the flag cannot narrow them: this
   file's normals, alpha rules and rules equal those of a file built without it
   (spc_ref.c), field by field and bit by bit. Before, the alpha rule differed at every
   coordinate here, and the normals at some (187 of 1000 on a Cortex-M4). */
#include "dropout.h"
#include <stdio.h>
#include <string.h>
#include "spc.h"

#define SPC_N 4096u

int main(void)
{
   uint64_t q;
   unsigned bad = 0, checked = 0;
   for (q = 0; q < SPC_N; ++q) {
      struct spc_out mine, ref;
      memset(&mine, 0, sizeof mine);
      memset(&ref, 0, sizeof ref);
      SPC_BLOCKS(q, &mine);
      spc_blocks(q, &ref);
      checked += 6;
      if (memcmp(&mine.normal, &ref.normal, sizeof mine.normal) || memcmp(&mine.normal_edge, &ref.normal_edge, sizeof mine.normal_edge) ||
          mine.rule.threshold != ref.rule.threshold || memcmp(&mine.rule.scale_f64, &ref.rule.scale_f64, sizeof(double)) ||
          memcmp(&mine.rule.scale_f32, &ref.rule.scale_f32, sizeof(float)) ||
          memcmp(&mine.alpha.a, &ref.alpha.a, sizeof(double)) || memcmp(&mine.alpha.c, &ref.alpha.c, sizeof(double)) ||
          memcmp(&mine.alpha.drop, &ref.alpha.drop, sizeof(double)) || memcmp(&mine.alpha.a_f32, &ref.alpha.a_f32, sizeof(float)) ||
          memcmp(&mine.alpha.c_f32, &ref.alpha.c_f32, sizeof(float)) || memcmp(&mine.alpha.drop_f32, &ref.alpha.drop_f32, sizeof(float)) ||
          memcmp(&mine.alpha_y, &ref.alpha_y, sizeof(float)) || memcmp(&mine.alpha_yd, &ref.alpha_yd, sizeof(double))) {
         if (bad < 3)
            printf("    q %lu: normal %a / %a, edge %a / %a, alpha a %a / %a\n", (unsigned long)q, (double)mine.normal,
                   (double)ref.normal, (double)mine.normal_edge, (double)ref.normal_edge, mine.alpha.a, ref.alpha.a);
         ++bad;
      }
   }
   if (bad) {
      printf("FAIL api -fsingle-precision-constant user file: %u of %u coordinates give other building-block bits than a plain file\n",
             bad, (unsigned)SPC_N);
      return 1;
   }
   printf("PASS api -fsingle-precision-constant user file: the inline building blocks (normals, rules, alpha rules and "
          "outputs) give a plain file's bits at %u coordinates (%u values)\n", (unsigned)SPC_N, checked);
   return 0;
}
