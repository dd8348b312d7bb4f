/* What short_enums_user.c compares between its file (-fshort-enums) and the implementation's
   (without): each public struct's size and the offset of each field an enum could move. */
#define SHORT_ENUMS_FIELDS 13
#define SHORT_ENUMS_MEASURE(o) do { \
      (o)[0] = sizeof(dropout_bits);              (o)[1] = sizeof(dropout_units); \
      (o)[2] = sizeof(dropout_gen);               (o)[3] = offsetof(dropout_gen, dropout__home); \
      (o)[4] = sizeof(dropout_plan);              (o)[5] = offsetof(dropout_plan, units); \
      (o)[6] = sizeof(dropout_desc);              (o)[7] = sizeof(dropout_tensors); \
      (o)[8] = sizeof(dropout_job);               (o)[9] = offsetof(dropout_job, dtype); \
      (o)[10] = offsetof(dropout_job, elem_size); (o)[11] = offsetof(dropout_job, mask_in); \
      (o)[12] = sizeof(dropout_operand) + sizeof(dropout_grad) + sizeof(dropout_op_class); \
   } while (0)
void short_enums_layout(size_t out[SHORT_ENUMS_FIELDS]);
