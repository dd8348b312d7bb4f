/* A file built with -fshort-enums (arm-none-eabi's default; elsewhere a flag) against an
   implementation built without it. Every public enum holds an int-sized private member, so
   the two lay the structs out alike: before, this file's dropout_job was 8 bytes shorter
   than the one dropout_lower filled (a heap overflow) and its enum fields sat elsewhere.
   Oracle: the implementation's own sizes and offsets; the job's fields against the
   descriptor that made it; the output against dropout_keep_at, element by element. */
#include "dropout.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "short_enums.h"

int main(void)
{
   static const char *what[SHORT_ENUMS_FIELDS] = {
      "sizeof(dropout_bits)", "sizeof(dropout_units)", "sizeof(dropout_gen)", "offsetof(dropout_gen, dropout__home)",
      "sizeof(dropout_plan)", "offsetof(dropout_plan, units)", "sizeof(dropout_desc)", "sizeof(dropout_tensors)",
      "sizeof(dropout_job)", "offsetof(dropout_job, dtype)", "offsetof(dropout_job, elem_size)",
      "offsetof(dropout_job, mask_in)", "sizeof operand + grad + op_class" };
   size_t mine[SHORT_ENUMS_FIELDS], theirs[SHORT_ENUMS_FIELDS];
   float x[256], y[256];
   dropout_gen g; dropout_rule rule; dropout_plan plan; dropout_desc d; dropout_tensors t;
   dropout_job *j;
   int i, rc, bad = 0, dropped = 0;

   SHORT_ENUMS_MEASURE(mine);
   short_enums_layout(theirs);
   for (i = 0; i < SHORT_ENUMS_FIELDS; ++i)
      if (mine[i] != theirs[i]) {
         printf("FAIL api short enums: %s is %lu in a -fshort-enums file, %lu in the implementation\n", what[i],
                (unsigned long)mine[i], (unsigned long)theirs[i]);
         bad = 1;
      }
   if (bad) return 1;

   /* the job exactly as large as this file thinks (a sanitizer build sees any write past it) */
   j = (dropout_job *)malloc(sizeof *j);
   if (!j) return 1;
   for (i = 0; i < 256; ++i) x[i] = 1.0f + (float)i;
   rc = dropout_rule_init(&rule, 0.5, DROPOUT_BITS_16);
   rc = rc ? rc : dropout_gen_init(&g, dropout_key_make(1234, 5));
   rc = rc ? rc : dropout_gen_plan(&g, &rule, 256, &plan);
   rc = rc ? rc : dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
   memset(&t, 0, sizeof t);
   t.out = y; t.in = x;
   rc = rc ? rc : dropout_lower(&d, &t, j);
   if (rc) { printf("FAIL api short enums: a call returned %d (%s)\n", rc, dropout_strerror(rc)); free(j); return 1; }
   if (j->op != DROPOUT_OP_FORWARD || j->op_class != DROPOUT_CLASS_PLAIN || j->dtype != DROPOUT_DTYPE_F32 ||
       j->elem_size != 4 || j->numel != 256 || j->seed != 1234 || j->stream != 5 || j->out != (void *)y || j->in != (const void *)x ||
       plan.units != DROPOUT_UNITS_16 || g.units != DROPOUT_UNITS_16 || g.next != 256) {
      printf("FAIL api short enums: the job or plan read here is not the one filled (op %d dtype %d elem_size %lu numel %lu units %d)\n",
             (int)j->op, (int)j->dtype, (unsigned long)j->elem_size, (unsigned long)j->numel, (int)plan.units);
      free(j);
      return 1;
   }
   free(j);
   rc = dropout_run(&d, &t);
   for (i = 0; i < 256 && !rc; ++i) {
      int keep = dropout_keep_at(1234, 5, (uint64_t)i, rule);
      float want = keep ? x[i] * rule.scale_f32 : 0.0f;
      if (memcmp(&y[i], &want, sizeof want)) { printf("FAIL api short enums: y[%d] = %a, want %a\n", i, (double)y[i], (double)want); return 1; }
      dropped += !keep;
   }
   if (rc) { printf("FAIL api short enums: dropout_run returned %d (%s)\n", rc, dropout_strerror(rc)); return 1; }
   printf("PASS api short enums: a -fshort-enums file lays out every public struct as the implementation does "
          "(job %lu bytes, enums %lu), and its lowered job and forward are exact (%d of 256 dropped)\n",
          (unsigned long)mine[8], (unsigned long)mine[0], dropped);
   return 0;
}
