# covers: dropout_cuda.cuh without a GPU: kernel bodies on the CPU, every kernel through nvcc
# oracle: the CPU library, bit for bit (test_cuda_logic.c); nvcc -Werror all-warnings
# needs: cc; optional c++, nvcc + g++ (else SKIP); the GPU runs are `make test-cuda`
#  1. the kernel bodies over emulated grids, built by the host compiler as C99 (the runner's
#     build of tests/cuda/test_cuda_logic.c, the rule) and here as C++;
#  2. nvcc compiles every kernel to PTX for compute_75 (before the paired f16/bf16
#     conversions) and compute_90 (with them; sm_80 compiles the same source as sm_90) with
#     warnings as errors (tests/cuda/test_cuda.cu instantiates them all), and for sm_90:
#     tests/cuda/test_cuda_v0.cu (a 0.1.0 program under DROPOUT_V0_API), the trainer
#     (examples/train_mlp_cuda.cu) and the benchmarks (bench_cuda, matmul_cost_cuda);
#     tests/cuda/variants_cuda.cu, tests/cuda/test_cuda_run.cu (dropout_cuda_run against
#     dropout_run) and the Python library (python/dropouth_cuda_lib.cu), whose kernels are
#     test_cuda's, with their device code through nvcc's front end (start.sh says why);
#  3. test_cuda_run's refusals, which need no GPU (every call refuses before it launches);
#     without a GPU, the trainer run to its SKIP line;
#     bench/torch_cuda.py parses; bench/cuda_ab.py (make bench-cuda-ab) on made-up runs.
# The GPU runs themselves are `make test-cuda` and `make bench-cuda`.
# nvcc is slow on two cores: tests/cuda/start.sh starts its builds in the background when
# the run begins, and reuses its outputs while the sources, flags and nvcc are unchanged.

if command -v c++ >/dev/null 2>&1; then
   build cuda_logic_cxx c++ -x c++ -std=c++11 -O2 $WARN -I. -Itests tests/cuda/test_cuda_logic.c -o "$BUILD/test_cuda_logic_cxx"
else
   say "SKIP build cuda_logic_cxx: no c++ compiler"
fi

[ -n "${nv_started:-}" ] || . ./tests/cuda/start.sh   # the nvcc builds (started early by run.sh)
case $nv_state in
   nonvcc) say "SKIP build nvcc_kernels: nvcc not found (set NVCC=...)" ;;
   nogxx) say "SKIP build nvcc_kernels: nvcc's host compiler g++ not found" ;;
   reused)
      printf '%s\n%s\n' "$nv_lane_a_list" "$nv_lane_b_list" | while IFS='|' read -r nv_n nv_o nv_args; do
         say "PASS build $nv_n (reused: sources unchanged since the last build)"
      done ;;
   building)
      wait $nv_lane_a; wait $nv_lane_b   # these two only: the xarch builds run in the background too
      echo "    nvcc builds took $(( $(date +%s) - nv_t0 )) s from the start of the run (in the background)"
      nv_ok=1
      while IFS='|' read -r nv_n nv_o nv_args; do
         if [ "$(cat "$nv_dir/$nv_n.rc" 2>/dev/null)" = 0 ] && [ -f "$BUILD/$nv_o" ]; then say "BUILD ok $nv_n"
         else say "FAIL build $nv_n: $(head -c 600 "$nv_dir/$nv_n.log" 2>/dev/null | tr '\n' ' ')"; nv_ok=0; fi
      done <<EOF_NV
$nv_lane_a_list
$nv_lane_b_list
EOF_NV
      [ $nv_ok = 1 ] && echo "$nv_key" >"$nv_stamp" ;;
esac

# ptxas does not run on the kernels here (tests/cuda/start.sh), and NVVM passes inline asm
# through unread: the compute_75 PTX must hold none of the paired f16/bf16 conversions
# (cvt.rn.{f16x2,bf16x2}.f32: sm_80 and later), which the compute_90 PTX must hold (so that
# the search can find them)
nv_p75=$nv_dir/keep/test_cuda.compute_75.ptx; nv_p90=$nv_dir/keep/test_cuda.compute_90.ptx
if [ "$nv_state" = building ] || [ "$nv_state" = reused ]; then
   if [ ! -f "$nv_p75" ] || [ ! -f "$nv_p90" ]; then
      say "FAIL cuda ptx: the kernel build left no PTX in $nv_dir/keep"
   elif grep -qE 'cvt\.rn\.(bf16x2|f16x2)\.f32' "$nv_p75"; then
      say "FAIL cuda ptx: the compute_75 PTX holds a paired f16/bf16 conversion (sm_80 and later): $(grep -m1 -E 'cvt\.rn\.(bf16x2|f16x2)\.f32' "$nv_p75" | tr -s ' \t' ' ')"
   elif ! grep -qE 'cvt\.rn\.(bf16x2|f16x2)\.f32' "$nv_p90"; then
      say "FAIL cuda ptx: the compute_90 PTX holds no paired f16/bf16 conversion (the search cannot see them)"
   else
      say "PASS cuda ptx: the paired f16/bf16 conversions are in the compute_90 PTX and not in compute_75's"
   fi
   # built with --use_fast_math (start.sh): -ftz=true makes every f32 instruction NVVM writes
   # flush subnormals (mul.ftz.f32, ...), -prec-div=false and -prec-sqrt=false approximate;
   # none may be in the library's kernels, whose float operations are IEEE's under any flags
   nv_fmp=""
   # (a build of one arch keeps its PTX without the arch in the name; the programs whose
   # device code stops at the front end, nv_front, leave none: their kernels are test_cuda's)
   nv_fl="test_cuda.compute_75 test_cuda.compute_90 test_cuda_v0"
   [ "$nv_fn" = frontend ] || nv_fl="$nv_fl test_cuda_run variants_cuda dropouth_cuda_lib"
   for nv_f in $nv_fl; do
      if [ -f "$nv_dir/keep/$nv_f.ptx" ]; then nv_fmp="$nv_fmp $nv_dir/keep/$nv_f.ptx"
      else say "FAIL cuda fast-math: no $nv_f.ptx in $nv_dir/keep"; fi
   done
   # shellcheck disable=SC2086 # a list of files
   nv_fm=$(grep -E '\.(ftz|approx|full)[.[:space:]]' $nv_fmp /dev/null | head -n 1 | tr -s ' \t' ' ')
   if [ -n "$nv_fm" ]; then
      say "FAIL cuda fast-math: a program built with --use_fast_math holds a flushing or approximate instruction: $nv_fm"
   else
      say "PASS cuda fast-math: the library's kernels built with --use_fast_math hold no flushing or approximate instruction (PTX of the kernel build, compute_75 and compute_90, and of the 0.1 calls' program)"
   fi
fi
# What lets the programs of nv_front (tests/cuda/start.sh) stop their device code at the
# front end: their kernels are test_cuda's. A macro set before dropout_cuda.cuh could make
# other kernels (bench_cuda's block sizes do), so before that include each of these files,
# and test_cuda.cu itself, holds system headers and the two implementation switches alone.
nv_bad=""
for nv_f in tests/cuda/test_cuda.cu tests/cuda/test_cuda_run.cu tests/cuda/variants_cuda.cu python/dropouth_cuda_lib.cu; do
   nv_pre=$(awk '/^[ \t]*#[ \t]*include[ \t]*"(\.\.\/)?dropout_cuda\.cuh"/ { found = 1; exit }
                 /^[ \t]*#/ && !/^#include <[A-Za-z0-9_\/.]+>$/ && !/^#define DROPOUT_(CUDA_)?IMPLEMENTATION$/ { print }
                 END { if (!found) print "(no #include \"dropout_cuda.cuh\")" }' "$nv_f")
   [ -z "$nv_pre" ] || nv_bad="$nv_bad $nv_f: $(printf '%s' "$nv_pre" | head -n 1);"
done
if [ -z "$nv_bad" ]; then
   say "PASS cuda kernels: test_cuda_run, variants_cuda and the Python library set nothing before dropout_cuda.cuh, as test_cuda does (their kernels are the kernel build's)"
else
   say "FAIL cuda kernels: a line before dropout_cuda.cuh may change the kernels, so tests/cuda/start.sh's front-end builds would miss them:$nv_bad"
fi

# the refusals every CUDA call makes before it touches a GPU: they run without one
if [ -x "$BUILD/test_cuda_run" ]; then
   run_prog cuda_refusals "$BUILD/test_cuda_run" refusals
fi
# the GPU trainer without a GPU: one SKIP line naming why, exit 0 (with a GPU,
# tests/tutorial/suite.sh builds it optimised and trains)
if [ -x "$BUILD/train_mlp_cuda" ] && ! nvidia-smi >/dev/null 2>&1; then
   run_prog train_mlp_cuda_nogpu "$BUILD/train_mlp_cuda" --epochs 30
fi

if command -v python3 >/dev/null 2>&1; then
   build torch_cuda_py python3 -c "import py_compile; py_compile.compile('bench/torch_cuda.py', cfile='$BUILD/torch_cuda.pyc', doraise=True)"
   # make bench-cuda-ab's comparison on made-up runs: forward 8-bit 1.0 / 1.1 ms in A, 1.3 /
   # 1.2 in B (1.20 over A's spread 1.10: flagged); backward 1.0 / 1.0 against 1.02 / 1.03
   # (1.02: not); the copy row is another path
   ab=$BUILD/cuda_ab; mkdir -p "$ab"
   for side in a1:1.0:1.0 a2:1.1:1.0 b1:1.3:1.02 b2:1.2:1.03; do
      IFS=: read -r name fw bw <<EOF_AB
$side
EOF_AB
      { echo "case,dtype,bits,n,path,ms,GBps,ratio_copy"
        echo "copy (cudaMemcpy D2D),f32,0,1048576,-,0.5,1,1"
        echo "forward,f32,8,1048576,warp,$fw,1,1"
        echo "backward (mask-free),f32,8,1048576,warp,$bw,1,1"; } >"$ab/$name.csv"
   done
   if python3 bench/cuda_ab.py --rev base --base "$ab/a1.csv" "$ab/a2.csv" --new "$ab/b1.csv" "$ab/b2.csv" >"$ab/report.md" 2>&1 &&
      grep -q '^B/A above 1.05 and above A.s spread: forward f32 8-bit 2^20 (1.200, spread 1.10)$' "$ab/report.md" &&
      grep -q '^| f32 | 2^20 | 2 | 1.02 - 1.20 ' "$ab/report.md"; then
      say "PASS bench/cuda_ab.py (make bench-cuda-ab): ratios of best medians, the base's spread, the flagged cell"
   else
      say "FAIL bench/cuda_ab.py on made-up runs: $(tr '\n' ' ' <"$ab/report.md" | head -c 600)"
   fi
else
   say "SKIP build torch_cuda_py: no python3"
   say "SKIP bench/cuda_ab.py: no python3"
fi
