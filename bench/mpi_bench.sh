#!/bin/sh
# mpi_bench.sh - what `make bench-mpi` runs: epoch time of examples/train_mlp_mpi.c against
# the rank count, with the fixed-order reduction (block partials gathered with
# MPI_Allgatherv, added in block order on every rank) and with MPI_Allreduce of per-rank sums.
#
#   sh bench/mpi_bench.sh OUT.md        env: TRAINER, MPIRUN, MPIRUN_FLAGS, RANKS, REPS
#
# Each cell is the median of REPS runs. "gradient phase" is the time from the end of the
# backward pass to the summed gradient: the weight-gradient sums, the communication and (fixed
# order) the additions of the block partials; the slowest rank's figure.
set -u
out=${1:-bench/results/mpi.md}
TRAINER=${TRAINER:-build/train_mlp_mpi}
MPIRUN=${MPIRUN:-mpirun}
MPIRUN_FLAGS=${MPIRUN_FLAGS:---oversubscribe --bind-to none --mca mpi_yield_when_idle 1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none}
RANKS=${RANKS:-1 2 3 4}
REPS=${REPS:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "?" }'; }

# cell NP ARGS...: "ms/epoch gradient-ms hash" medians over REPS runs (NP 0: --serial)
cell() {
   np=$1; shift
   : >"$tmp/e"; : >"$tmp/g"
   i=0
   while [ $i -lt "$REPS" ]; do
      if [ "$np" = 0 ]; then "$TRAINER" --serial "$@" >"$tmp/o" 2>&1
      # shellcheck disable=SC2086
      else $MPIRUN $MPIRUN_FLAGS -np "$np" "$TRAINER" "$@" >"$tmp/o" 2>&1; fi || { echo "? ? failed"; return; }
      sed -n 's/.* s, \([0-9.]*\) ms per epoch.*/\1/p' "$tmp/o" >>"$tmp/e"
      sed -n 's/.*gradient reduction \([0-9.]*\) ms per epoch.*/\1/p' "$tmp/o" >>"$tmp/g"
      i=$((i + 1))
   done
   echo "$(median <"$tmp/e") $(median <"$tmp/g") $(sed -n 's/^weights \([0-9a-f]*\) .*/\1/p' "$tmp/o")"
}

{
   echo "# Data-parallel training over Open MPI: epoch time against the rank count"
   echo
   echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
   echo "- cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores online"
   echo "- Open MPI: $($MPIRUN --version 2>/dev/null | head -n 1)"
   echo "- compiler: $(mpicc --version 2>/dev/null | head -n 1), -O2 -ffp-contract=off"
   echo "- load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores; other work on the machine counts)"
   echo "- command: \`make bench-mpi\` (sh bench/mpi_bench.sh), $MPIRUN $MPIRUN_FLAGS -np R $TRAINER ...; median of $REPS runs"
   echo
   echo "One machine with 2 cores: 3 and 4 ranks are oversubscribed (more processes than cores),"
   echo "so beyond 2 ranks this measures time-sharing, not scaling. The ranks talk through shared"
   echo "memory; a network would make every exchange slower."
   echo "\"gradient phase\": from the end of the backward pass to the summed gradient (weight-gradient"
   echo "sums, communication, the additions of the block partials), the slowest rank, per epoch."
   echo "Batch 25 in blocks of 5 (8 steps per epoch)."
} >"$tmp/head"

for spec in "64 300" "256 40"; do
   set -- $spec
   H=$1; E=$2
   {
      echo
      echo "## hidden width $H ($E epochs; $(( (2 * H + H + H * H + H + 2 * H + 2) )) parameters, gradient $(( (2 * H + H + H * H + H + 2 * H + 2) * 4 / 1024 )) KiB)"
      echo
      echo "| ranks | fixed order: ms/epoch | gradient phase | MPI_Allreduce: ms/epoch | gradient phase | fixed-order weights | Allreduce weights |"
      echo "|---:|---:|---:|---:|---:|---|---|"
      set -- $(cell 0 --hidden "$H" --epochs "$E")
      echo "| serial (no MPI) | $1 | $2 | | | \`$3\` | |"
      for r in $RANKS; do
         set -- $(cell "$r" --hidden "$H" --epochs "$E")
         fe=$1; fg=$2; fh=$3
         set -- $(cell "$r" --hidden "$H" --epochs "$E" --reduce allreduce)
         echo "| $r | $fe | $fg | $1 | $2 | \`$fh\` | \`$3\` |"
      done
   } >>"$tmp/body"
   echo "hidden $H done" >&2
done
echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$tmp/head"
cat "$tmp/head" "$tmp/body" >"$out"
cat "$out"
