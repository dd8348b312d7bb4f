#!/bin/sh
# demo_mpi.sh - what `make demo-mpi` runs: the demo MLP trained serially and data-parallel on
# 1, 2, 3 and 4 Open MPI ranks, one weight hash per run, IDENTICAL only when all are equal.
#
#   sh examples/demo_mpi.sh [trainer options, e.g. --epochs 30]
#   env: TRAINER (build/train_mlp_mpi), TRAIN_MLP (build/train_mlp: the single-process
#        trainer, for the bridge to its order; skipped if absent), MPIRUN (mpirun),
#        MPIRUN_FLAGS, RANKS ("1 2 3 4"), DIR (build/mpi)
# Exit status 0 only when every data-parallel run equals the serial run bit for bit, the
# one-block serial run ran, and it equals train_mlp.c's weights where that bridge applies
# (it is skipped, and says so, when train_mlp is not built or the options make another model).
set -u
TRAINER=${TRAINER:-build/train_mlp_mpi}
TRAIN_MLP=${TRAIN_MLP:-build/train_mlp}
MPIRUN=${MPIRUN:-mpirun}
# --oversubscribe: more ranks than the 2 cores; --bind-to none: oversubscribed ranks must not
# share one pinned core; mpi_yield_when_idle: a rank waiting for another yields its core
# instead of spinning (on a busy 2-core machine 2 spinning ranks ran 3-10x slower); shared
# memory only, without the cross-process copy (CMA) that containers often forbid.
MPIRUN_FLAGS=${MPIRUN_FLAGS:---oversubscribe --bind-to none --mca mpi_yield_when_idle 1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none}
RANKS=${RANKS:-1 2 3 4}
DIR=${DIR:-build/mpi}
# Open MPI refuses to start as root without both of these
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$DIR"
epochs=300
seed=1
bridge=1   # train_mlp takes --epochs and --seed; with another option its run is another model
prev=
for a in "$@"; do
   case $prev in --epochs) epochs=$a ;; --seed) seed=$a ;; esac
   case $a in --hidden|--batch|--block) bridge=0 ;; esac
   prev=$a
done

ok=1
# pieces of the trainer's summary lines
hash_of() { sed -n 's/^weights \([0-9a-f]\{16\}\) .*/\1/p' "$1"; }
diff_of() { sed -n 's/.*max|diff| \([^ ]*\) .*/\1/p' "$1"; }
per_epoch() { sed -n 's/.* s, \([0-9.]*\) ms per epoch.*/\1 ms/p' "$1"; }
shards() { sed -n 's/.*samples per rank in a batch of [0-9]*: //p' "$1"; }

echo "The demo MLP (make demo's dropout run, $epochs epochs) trained data-parallel: each rank takes"
echo "whole blocks of 5 samples of every minibatch of 25, dropout positions come from the sample's"
echo "place in the batch, block gradients are added in block order on every rank."
echo
printf '%-28s %-17s %-13s %s\n' "run" "weights" "time/epoch" "samples per rank"
if ! "$TRAINER" --serial --save "$DIR/serial.bin" "$@" >"$DIR/serial.out" 2>&1; then
   cat "$DIR/serial.out"; echo "FAILED: the serial run"; exit 1
fi
ref=$(hash_of "$DIR/serial.out")
printf '%-28s %-17s %-13s %s\n' "serial (no MPI)" "$ref" "$(per_epoch "$DIR/serial.out")" "$(shards "$DIR/serial.out")"
worst=0
for r in $RANKS; do
   out=$DIR/ranks$r.out
   # shellcheck disable=SC2086
   if $MPIRUN $MPIRUN_FLAGS -np "$r" "$TRAINER" --compare "$DIR/serial.bin" "$@" >"$out" 2>&1; then
      h=$(hash_of "$out")
      printf '%-28s %-17s %-13s %s\n' "mpirun -np $r" "$h" "$(per_epoch "$out")" "$(shards "$out")"
      if [ "$h" != "$ref" ]; then ok=0; worst=$(diff_of "$out"); echo "   max|diff| against serial: $worst"; fi
   else
      ok=0; worst="(a run failed)"
      echo "mpirun -np $r FAILED:"; sed 's/^/   /' "$out"
   fi
done
if [ $ok = 1 ]; then
   echo "IDENTICAL: serial and $(echo "$RANKS" | sed 's/ /, /g') ranks, weights $ref"
else
   echo "NOT IDENTICAL: max|diff| $worst"
fi

echo
echo "The bridge to the single-process trainer: with one block per batch the fixed order is"
echo "train_mlp.c's own (one sum over the batch, sample by sample):"
one=
if "$TRAINER" --serial --block 25 "$@" >"$DIR/one_block.out" 2>&1; then one=$(hash_of "$DIR/one_block.out"); fi
if [ -z "$one" ]; then
   ok=0; echo "   serial, --block 25 FAILED:"; sed 's/^/   /' "$DIR/one_block.out"
elif [ $bridge = 0 ]; then
   echo "   serial, --block 25: $one (no bridge: train_mlp has no --hidden, --batch or --block)"
elif [ -x "$TRAIN_MLP" ]; then
   "$TRAIN_MLP" --threads 1 --epochs "$epochs" --seed "$seed" --out "$DIR/train_mlp" >"$DIR/train_mlp.out" 2>&1
   tm=$(sed -n 's/^ *same seed, run again: *\([0-9a-f]\{16\}\) .*/\1/p' "$DIR/train_mlp.out")
   if [ -n "$one" ] && [ "$one" = "$tm" ]; then
      echo "   serial, --block 25: $one = train_mlp's dropout run: $tm  IDENTICAL"
   else
      ok=0; echo "   serial, --block 25: $one != train_mlp's dropout run: ${tm:-?}  DIFFERENT"
   fi
else
   echo "   serial, --block 25: $one (train_mlp not built: make build/train_mlp)"
fi

echo
echo "For comparison, what data-parallel frameworks do: each rank sums its own samples and"
echo "MPI_Allreduce adds the ranks' sums (--reduce allreduce). The additions change with the"
echo "rank count, and so do the weights (1 rank is train_mlp.c's order again):"
base=
first=
for r in $RANKS; do
   out=$DIR/allreduce$r.out
   cmp=
   [ -n "$base" ] && cmp="--compare $DIR/allreduce$first.bin"
   # shellcheck disable=SC2086
   if $MPIRUN $MPIRUN_FLAGS -np "$r" "$TRAINER" --reduce allreduce --save "$DIR/allreduce$r.bin" $cmp "$@" >"$out" 2>&1; then
      h=$(hash_of "$out")
      [ -z "$base" ] && { base=$h; first=$r; }
      if [ "$h" = "$base" ]; then what="(the reference)"; else what="max|diff| against $first rank(s): $(diff_of "$out")"; fi
      printf '%-28s %-17s %-13s %s\n' "mpirun -np $r" "$h" "$(per_epoch "$out")" "$what"
   else
      echo "mpirun -np $r --reduce allreduce FAILED:"; sed 's/^/   /' "$out"
   fi
done
[ $ok = 1 ]
