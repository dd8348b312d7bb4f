/* What spc_user.c compares between a file built with gcc's -fsingle-precision-constant
   (every unsuffixed floating constant a float) and one built without: each inline
   building block whose code has double constants (the normals' logarithm, sine, cosine
   and square root; the alpha rule; the rule), at coordinates that reach every branch. */
struct spc_out {
   float normal, normal_edge;
   dropout_rule rule;
   dropout_alpha_rule alpha;
   float alpha_y; double alpha_yd;
};
#define SPC_BLOCKS(q, o) do { \
      /* p in hundredths, so that this file's own constants are integers: 0.1 here would be \
         a float in one file and a double in the other */ \
      static const int spc_ps_[8] = { 0, 10, 25, 30, 50, 77, 90, 100 }, spc_bits_[3] = { 8, 16, 32 }; \
      int spc_b_ = spc_bits_[(q) % 3u]; \
      double spc_p_ = (double)spc_ps_[((q) / 3u) % 8u] / 100; \
      (o)->normal = dropout_normal_at(0x243F6A8885A308D3u, (q) >> 6, (q) * 977u); \
      /* words near the ends: u = 2^-32 and 1 (w0), each quadrant's edges (w1) */ \
      (o)->normal_edge = dropout_normal_from_words((uint32_t)((q) & 1u ? 0xFFFFFFFFu - (q) : (q)), \
                                                   (uint32_t)((q) * 0x20000000u + ((q) >> 3)), (int)((q) & 2u) >> 1); \
      (o)->rule = dropout_rule_make(spc_p_, spc_b_); \
      (o)->alpha = dropout_alpha_rule_make(spc_p_, spc_b_); \
      (o)->alpha_y = dropout_alpha_apply_f32(1.5f - (float)(q) * 0.25f, (int)((q) & 1u), (o)->alpha); \
      (o)->alpha_yd = dropout_alpha_apply_f64(1.5 - (double)(q) * 0.25, (int)((q) & 1u), (o)->alpha); \
   } while (0)
void spc_blocks(uint64_t q, struct spc_out *o);
