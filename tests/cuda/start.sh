# start.sh - the background half of tests/cuda/suite.sh: nvcc's builds, started by
# tests/run.sh before the one-at-a-time tests (nvcc takes minutes on two cores; run in
# the background, niced, it fills the time the other areas leave a core idle). Sourced,
# not run: the suite waits for the two lanes and says each build's result. Names start
# with nv_. nvcc's outputs are reused while a hash of the sources, the flags and the nvcc
# version is unchanged (DROPOUT_NVCC_FRESH=1 forces a rebuild).
nv_started=1
nv_lane_a=""; nv_lane_b=""; nv_state=""   # nv_state: nonvcc, nogxx, reused, building
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
nv_dir=$BUILD/nvcc
mkdir -p "$nv_dir" "$nv_dir/keep"
nv_flags="-std=c++14 -Werror all-warnings -Xcompiler -Wall,-Wextra -I. -Itests"
# Every build here is a compile check: the GPU runs (make test-cuda, make gpu) build their
# programs again in build/cuda/, optimised for the GPU at hand (ptxas included), and nothing
# here runs them on a GPU. Host code is compiled in full (gcc, every warning an error);
# device code goes through nvcc's front end and NVVM unoptimised (-Xcicc -O0) to PTX, and no
# further. The kernel build, test_cuda, which instantiates every kernel, goes to PTX for
# compute_75 (the portable f16/bf16 code) and compute_90 (the paired f16/bf16 conversions,
# sm_80 and later). An intrinsic an architecture lacks is an NVVM error; inline asm is
# not (NVVM passes it through unread), so the suite searches the kept compute_75 PTX for
# the sm_80 asm the header writes. ptxas is left out: on the unoptimised PTX it took 40 of
# the kernel build's 64 s of CPU (at -O0 as well); what else it adds is each kernel's
# register and memory budget, which make gpu's build sees. The other programs stop at compute_90 PTX
# (test_cuda_run: 20 s of CPU instead of 56 at ptxas -O0), and their host code is compiled by
# gcc unoptimised (13.7 s instead of 16.4; the kernel build's host code, the whole CPU
# library, at -O2, where gcc's flow warnings run). ptxas itself runs in make test on
# tests/build/nvcc_smoke.cu, for sm_75 and sm_90.
# The PTX is kept (-keep) so that tests/cuda/suite.sh can check the one thing ptxas caught
# there that NVVM does not: hand-written asm of sm_80 and later (the paired f16/bf16
# conversions) reaching the compute_75 code through a wrong #if. It is built with
# --use_fast_math, as many a CUDA project builds everything, and so is the 0.1 calls'
# program (nv_lib, its kernels the 0.1 ones too): suite.sh checks that their PTX holds no
# flushing (.ftz) or approximate instruction (the kernels' float operations are written so
# that no flag changes them: dropout.h, dropout__fmul).
nv_archs="--use_fast_math -O2 -gencode arch=compute_75,code=compute_75 -gencode arch=compute_90,code=compute_90 -Xcicc -O0 -keep -keep-dir $nv_dir/keep"
nv_check="-gencode arch=compute_90,code=compute_90 -Xcicc -O0"
nv_lib="--use_fast_math -keep -keep-dir $nv_dir/keep $nv_check"
# The programs whose device code is the library's kernels alone, under no macro of their own
# (test_cuda_run, variants_cuda, the Python package's library; suite.sh checks the macros):
# their kernels are test_cuda's, whose NVVM run above makes the PTX; their own NVVM runs
# gave the same PTX, byte for byte but for the file's name in internal symbols, at about
# 19 s of CPU each. So their device code stops after nvcc's front end (its errors and
# warnings still count) and their host code is compiled in full. No GPU runs these
# binaries (make test-cuda builds its own); test_cuda_run's refusals launch nothing.
# An nvcc without -fdevice-syntax-only runs NVVM on them as before.
if "$NVCC" --help 2>/dev/null | grep -q -e '-fdevice-syntax-only'; then
   nv_front="--use_fast_math -fdevice-syntax-only -gencode arch=compute_90,code=compute_90"; nv_fn=frontend
else
   nv_front=$nv_lib; nv_fn=ptx90
fi
# name|output|flags and sources: the two lanes, in order, of about equal CPU (two cores: the
# kernel build, about 46 s, with the 0.1 program's 24 s; four NVVM checks of 3 to 27 s,
# with two front ends of about 5 s)
nv_lane_a_list="nvcc_kernels_ptx75_ptx90|test_cuda|$nv_archs tests/cuda/test_cuda.cu
nvcc_run_$nv_fn|test_cuda_run|$nv_front tests/cuda/test_cuda_run.cu
nvcc_v0_program_ptx90|test_cuda_v0|$nv_lib tests/cuda/test_cuda_v0.cu"
nv_lane_b_list="nvcc_variants_$nv_fn|variants_cuda|$nv_front tests/cuda/variants_cuda.cu
nvcc_trainer_ptx90|train_mlp_cuda|-Xcompiler -ffp-contract=off $nv_check examples/train_mlp_cuda.cu -lpthread
nvcc_python_lib_$nv_fn|libdropouth_cuda.so|$nv_front -shared -Xcompiler -fPIC python/dropouth_cuda_lib.cu
nvcc_bench_ptx90|bench_cuda|$nv_check bench/bench_cuda.cu
nvcc_matmul_cost_ptx90|matmul_cost_cuda|-Xcompiler -ffp-contract=off $nv_check bench/matmul_cost_cuda.cu -lcublas"

# nv_lane LIST: each build of the list in turn; its log and exit status in $nv_dir
nv_lane() {
   printf '%s\n' "$1" | while IFS='|' read -r nv_n nv_o nv_args; do
      # shellcheck disable=SC2086 # flag lists are split on purpose
      nice -n 10 "$NVCC" $nv_flags $nv_args -o "$BUILD/$nv_o" >"$nv_dir/$nv_n.log" 2>&1
      echo $? >"$nv_dir/$nv_n.rc"
   done
}

# nv_done: true when nvcc's builds are over (none started, or every build of both lanes has
# written its exit status): tests/run.sh then runs the cuda suite, which waits for them
nv_done() {
   [ "$nv_state" = building ] || return 0
   for nv_n in $(printf '%s\n%s\n' "$nv_lane_a_list" "$nv_lane_b_list" | cut -d'|' -f1); do
      [ -f "$nv_dir/$nv_n.rc" ] || return 1
   done
}

if [ ! -x "$NVCC" ]; then nv_state=nonvcc
elif ! command -v g++ >/dev/null 2>&1; then nv_state=nogxx
else
   nv_key=$( { cat dropout.h dropout_v0.h dropout_cuda.cuh dropout_cuda_v0.cuh tests/cuda/test_cuda.cu tests/cuda/variants_cuda.cu tests/cuda/test_cuda_run.cu \
               tests/cuda/test_cuda_v0.cu tests/cuda/views.h tests/check.h bench/bench_cuda.cu bench/matmul_cost_cuda.cu \
               examples/train_mlp_cuda.cu examples/mlp_run.h examples/mlp_model.h examples/mlp_math.h python/dropouth_cuda_lib.cu
             echo "$nv_flags $nv_archs"; printf '%s\n%s\n' "$nv_lane_a_list" "$nv_lane_b_list"; "$NVCC" --version; } | cksum | cut -d' ' -f1)
   nv_stamp=$BUILD/nvcc.stamp
   if [ "${DROPOUT_NVCC_FRESH:-0}" != 1 ] && [ -f "$nv_stamp" ] && [ "$(cat "$nv_stamp")" = "$nv_key" ]; then
      nv_state=reused
   else
      nv_state=building
      rm -f "$nv_stamp" "$nv_dir"/*.rc
      for nv_o in test_cuda variants_cuda test_cuda_run test_cuda_v0 train_mlp_cuda libdropouth_cuda.so bench_cuda matmul_cost_cuda; do
         rm -f "$BUILD/$nv_o"   # a failed build must not leave an old binary behind
      done
      nv_t0=$(date +%s)
      nv_lane "$nv_lane_a_list" & nv_lane_a=$!
      nv_lane "$nv_lane_b_list" & nv_lane_b=$!
   fi
fi
