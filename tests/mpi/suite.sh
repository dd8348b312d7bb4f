# covers: data and tensor parallelism over Open MPI, and the tutorial's MPI snippets
# oracle: the serial trainer's weights hash; the unsplit call's bits (mpi_tensor_parallel.c)
# needs: cc; optional mpicc + mpirun (openmpi-bin, libopenmpi-dev; else SKIP)
#  1. examples/train_mlp_mpi.c without MPI (any C compiler): its serial run with one block
#     per batch equals train_mlp.c's weights (--quick, 20 epochs).
#  2. With mpicc and mpirun: the trainer on 1, 2, 3 and 4 ranks equals the serial run bit for
#     bit (20 epochs), also with uneven blocks and a short last batch; MPI_Allreduce of
#     per-rank sums equals train_mlp.c on 1 rank and differs on 2 (why the fixed order);
#     a rank that crashes stops the job with a message and no weights.
#  3. tests/mpi/mpi_tensor_parallel.c on 1, 2, 3 and 4 ranks.
#  4. docs/TUTORIAL.md's MPI snippets (```c mpi blocks after <!-- snippet-mpi: NAME -->),
#     built with mpicc and run on 3 ranks.
# Open MPI refuses to run as root without OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM); 3 and 4 ranks on
# 2 cores need --oversubscribe. MPIRUN_FLAGS as in examples/demo_mpi.sh.
MPICC=${MPICC:-mpicc}
MPIRUN=${MPIRUN:-mpirun}
MPIRUN_FLAGS=${MPIRUN_FLAGS:---oversubscribe --bind-to none --mca mpi_yield_when_idle 1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none}
mpi_dir=$BUILD/mpi
rm -rf "$mpi_dir"
mkdir -p "$mpi_dir"
mpi_timeout=""
command -v timeout >/dev/null 2>&1 && mpi_timeout="timeout 120"   # a hung job is a FAIL, not a hang

# mpi_run NP ARGS...: one job; its exit status
mpi_run() {
   mpi_np=$1; shift
   # shellcheck disable=SC2086
   OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $mpi_timeout "$MPIRUN" $MPIRUN_FLAGS -np "$mpi_np" "$@"
}
mpi_hash() { sed -n 's/^weights \([0-9a-f]\{16\}\) .*/\1/p' "$1"; }

# 1. the serial half, which needs no MPI, against the single-process trainer
build train_mlp_mpi_serial $CC -std=c99 -O2 $WARN -ffp-contract=off -DTRAIN_MLP_NO_MPI -I. \
   examples/train_mlp_mpi.c -o "$mpi_dir/train_mlp_serial" -lpthread -lm
build_trainer train_mlp_for_mpi "$mpi_dir/train_mlp"
mpi_tm=
if [ -x "$mpi_dir/train_mlp" ]; then
   "$mpi_dir/train_mlp" --quick --threads 1 --out "$mpi_dir/pictures" >"$mpi_dir/train_mlp.out" 2>&1
   mpi_tm=$(sed -n 's/^ *same seed, run again: *\([0-9a-f]\{16\}\) .*/\1/p' "$mpi_dir/train_mlp.out")
fi
if [ -x "$mpi_dir/train_mlp_serial" ] && [ -n "$mpi_tm" ]; then
   "$mpi_dir/train_mlp_serial" --serial --block 25 --epochs 20 >"$mpi_dir/one_block.out" 2>&1
   mpi_h=$(mpi_hash "$mpi_dir/one_block.out")
   if [ "$mpi_h" = "$mpi_tm" ]; then
      say "PASS train_mlp_mpi --serial, one block per batch = train_mlp.c's weights ($mpi_h)"
   else
      say "FAIL train_mlp_mpi --serial, one block per batch: ${mpi_h:-no hash} but train_mlp.c gives $mpi_tm"
   fi
else
   say "FAIL train_mlp_mpi --serial: no trainer or no hash from train_mlp --quick"
fi

# Whether this machine can start an MPI job at all is asked of a program without dropout.h
# in it: a container without shared memory, a hostname that does not resolve, or a runtime
# that refuses root is a SKIP with Open MPI's own words, never a FAIL of the library.
mpi_env=""
if ! command -v "$MPICC" >/dev/null 2>&1 || ! command -v "$MPIRUN" >/dev/null 2>&1; then
   mpi_env="mpicc or mpirun not found (apt-get install openmpi-bin libopenmpi-dev)"
else
   printf '#include <mpi.h>\nint main(int c, char **v) { int n = 0; MPI_Init(&c, &v); MPI_Comm_size(MPI_COMM_WORLD, &n); MPI_Finalize(); return n == 2 ? 0 : 1; }\n' \
      >"$mpi_dir/hello.c"
   if ! "$MPICC" "$mpi_dir/hello.c" -o "$mpi_dir/hello" >"$mpi_dir/hello.log" 2>&1; then
      mpi_env="mpicc cannot build an MPI program here: $(head -c 300 "$mpi_dir/hello.log" | tr '\n' ' ')"
   elif ! mpi_run 2 "$mpi_dir/hello" >"$mpi_dir/hello.log" 2>&1; then
      mpi_env="mpirun cannot start 2 ranks of a program without dropout.h here: $(head -c 300 "$mpi_dir/hello.log" | tr '\n' ' ')"
   fi
fi
if [ -n "$mpi_env" ]; then
   say "SKIP mpi: $mpi_env"
else
   build train_mlp_mpi "$MPICC" -std=c99 -O2 $WARN -ffp-contract=off -I. examples/train_mlp_mpi.c \
      -o "$mpi_dir/train_mlp_mpi" -lpthread -lm
   build mpi_tensor_parallel "$MPICC" -std=c99 -O2 $WARN -I. -Itests tests/mpi/mpi_tensor_parallel.c \
      -o "$mpi_dir/tensor_parallel"

   # 2. data parallel: every rank count against the serial run of the same settings
   # mpi_dp NAME "RANKS" ARGS...: serial once, then each rank count, weights byte for byte
   mpi_dp() {
      mpi_name=$1; mpi_ranks=$2; shift 2
      mpi_ref=$mpi_dir/$mpi_name.serial.bin
      "$mpi_dir/train_mlp_mpi" --serial --save "$mpi_ref" "$@" >"$mpi_dir/$mpi_name.serial.out" 2>&1
      mpi_s=$(mpi_hash "$mpi_dir/$mpi_name.serial.out")
      for mpi_r in $mpi_ranks; do
         mpi_out=$mpi_dir/$mpi_name.$mpi_r.out
         mpi_run "$mpi_r" "$mpi_dir/train_mlp_mpi" --compare "$mpi_ref" "$@" >"$mpi_out" 2>&1
         mpi_rc=$?
         mpi_h=$(mpi_hash "$mpi_out")
         if [ $mpi_rc -eq 0 ] && [ -n "$mpi_s" ] && [ "$mpi_h" = "$mpi_s" ] &&
            grep -q 'max|diff| 0  IDENTICAL$' "$mpi_out"; then
            say "PASS data parallel $mpi_name, $mpi_r rank(s) ($(sed -n 's/.*samples per rank in a batch of \([0-9]*\): /batch \1 split /p' "$mpi_out")) = serial ($mpi_s)"
         else
            say "FAIL data parallel $mpi_name, $mpi_r rank(s): exit $mpi_rc, ${mpi_h:-no hash} vs serial ${mpi_s:-none}: $(tail -n 3 "$mpi_out" | tr '\n' ' ')"
         fi
      done
   }
   if [ -x "$mpi_dir/train_mlp_mpi" ]; then
      mpi_dp demo "1 2 3 4" --epochs 20
      # blocks of 4 in batches of 23: a short last block, and 200 = 8*23 + 16 a short last batch
      mpi_dp uneven "3" --epochs 10 --batch 23 --block 4

      # the usual reduction, for contrast: right on 1 rank, rank-count dependent on 2
      mpi_run 1 "$mpi_dir/train_mlp_mpi" --reduce allreduce --epochs 20 >"$mpi_dir/allreduce1.out" 2>&1
      mpi_run 2 "$mpi_dir/train_mlp_mpi" --reduce allreduce --epochs 20 >"$mpi_dir/allreduce2.out" 2>&1
      mpi_a1=$(mpi_hash "$mpi_dir/allreduce1.out"); mpi_a2=$(mpi_hash "$mpi_dir/allreduce2.out")
      if [ -n "$mpi_tm" ] && [ "$mpi_a1" = "$mpi_tm" ]; then
         say "PASS MPI_Allreduce on 1 rank = train_mlp.c's weights ($mpi_a1)"
      else
         say "FAIL MPI_Allreduce on 1 rank: ${mpi_a1:-no hash}, train_mlp.c: ${mpi_tm:-none}"
      fi
      if [ -n "$mpi_a2" ] && [ -n "$mpi_a1" ] && [ "$mpi_a2" != "$mpi_a1" ]; then
         say "PASS MPI_Allreduce on 2 ranks changes the weights ($mpi_a2), as the fixed order avoids"
      else
         say "FAIL MPI_Allreduce on 2 ranks: ${mpi_a2:-no hash} vs 1 rank ${mpi_a1:-no hash} (expected a difference)"
      fi

      # a rank that dies mid-training: the job must stop, say so, and print no weights
      mpi_run 3 "$mpi_dir/train_mlp_mpi" --epochs 20 --fail-at 1:5 >"$mpi_dir/fail.out" 2>&1
      mpi_rc=$?
      if [ $mpi_rc -ne 0 ] && [ $mpi_rc -ne 124 ] && grep -q 'rank 1: --fail-at: crashing at step 5' "$mpi_dir/fail.out" &&
         grep -qi 'rank 1' "$mpi_dir/fail.out" && ! grep -q '^weights ' "$mpi_dir/fail.out"; then
         say "PASS data parallel: rank 1 crashing at step 5 stops the job (exit $mpi_rc) with a message, no weights"
      else
         say "FAIL data parallel: a crashing rank gave exit $mpi_rc (124: hung): $(tr '\n' ' ' <"$mpi_dir/fail.out" | head -c 400)"
      fi
      # ranks given different settings: stopped before the first step, with a message (another
      # batch hung the collectives; another seed was seen only after training)
      # shellcheck disable=SC2086
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $mpi_timeout "$MPIRUN" $MPIRUN_FLAGS \
         -np 1 "$mpi_dir/train_mlp_mpi" --epochs 20 --batch 25 : -np 1 "$mpi_dir/train_mlp_mpi" --epochs 20 --batch 20 \
         >"$mpi_dir/disagree.out" 2>&1
      mpi_rc=$?
      if [ $mpi_rc -ne 0 ] && [ $mpi_rc -ne 124 ] && grep -q 'ranks were given different' "$mpi_dir/disagree.out" &&
         ! grep -q '^weights ' "$mpi_dir/disagree.out"; then
         say "PASS data parallel: ranks given different --batch stop before training (exit $mpi_rc) with a message, no weights"
      else
         say "FAIL data parallel: ranks given different --batch gave exit $mpi_rc (124: hung): $(tr '\n' ' ' <"$mpi_dir/disagree.out" | head -c 400)"
      fi
   fi

   # 3. tensor parallel
   if [ -x "$mpi_dir/tensor_parallel" ]; then
      for mpi_r in 1 2 3 4; do
         run_prog "mpi_tensor_parallel_$mpi_r" mpi_run "$mpi_r" "$mpi_dir/tensor_parallel"
      done
   fi

   # 4. the tutorial's MPI snippets
   mpi_blocks=$(grep -c '^```c mpi$' docs/TUTORIAL.md)
   mpi_marked=$(awk '/^<!-- snippet-mpi: [a-z0-9_]+ -->$/ { m = 1; next }
                     /^```c mpi$/ { if (m) n++; }
                     { m = 0 } END { print n + 0 }' docs/TUTORIAL.md)
   if [ "$mpi_blocks" -eq "$mpi_marked" ]; then
      say "PASS tutorial: all $mpi_blocks MPI snippets are marked runnable"
   else
      say "FAIL tutorial: $mpi_blocks \`\`\`c mpi blocks but $mpi_marked marked with <!-- snippet-mpi: name -->"
   fi
   awk -v dir="$mpi_dir" '
      /^<!-- snippet-mpi: [a-z0-9_]+ -->$/ { name = $3; next }
      /^```c mpi$/ && name != "" { out = dir "/snippet_" name ".c"; grab = 1; next }
      grab && /^```$/ { grab = 0; name = ""; close(out); next }
      grab { print > out; next }
      { name = "" }' docs/TUTORIAL.md
   for mpi_src in "$mpi_dir"/snippet_*.c; do
      [ -e "$mpi_src" ] || continue
      mpi_snip=$(basename "$mpi_src" .c)
      mpi_snip=${mpi_snip#snippet_}
      if "$MPICC" -std=c99 -O2 $WARN -I. "$mpi_src" -o "$mpi_dir/snippet_$mpi_snip" >"$mpi_dir/snippet_$mpi_snip.build.log" 2>&1; then
         if mpi_run 3 "$mpi_dir/snippet_$mpi_snip" >"$mpi_dir/snippet_$mpi_snip.out" 2>&1; then
            say "PASS tutorial MPI snippet $mpi_snip (3 ranks)"
         else
            say "FAIL tutorial MPI snippet $mpi_snip: $(tail -n 3 "$mpi_dir/snippet_$mpi_snip.out" | tr '\n' ' ')"
         fi
      else
         say "FAIL tutorial MPI snippet $mpi_snip: does not compile: $(head -c 400 "$mpi_dir/snippet_$mpi_snip.build.log" | tr '\n' ' ')"
      fi
   done
fi
