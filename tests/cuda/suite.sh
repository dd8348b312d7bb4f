# covers: dropout_cuda.cuh without a GPU: kernel bodies on the CPU, every kernel through nvcc
# oracle: the CPU library, bit for bit (test_cuda_logic.c); nvcc -Werror all-warnings
# needs: cc; optional c++, nvcc + g++ (else SKIP); the GPU runs are `make test-cuda`
#  1. the kernel bodies over emulated grids, built by the host compiler as C99 (the runner's
#     build of tests/cuda/test_cuda_logic.c, the rule) and here as C++;
#  2. nvcc compiles every kernel for sm_75 (before the paired f16/bf16 conversions) and
#     sm_90 (with them; sm_80 compiles the same source as sm_90) with warnings as errors
#     (tests/cuda/test_cuda.cu instantiates them all), and for sm_90 (the same kernels):
#     tests/cuda/variants_cuda.cu, tests/cuda/test_cuda_run.cu (dropout_cuda_run against dropout_run),
#     tests/cuda/test_cuda_v0.cu (a 0.1.0 program under DROPOUT_V0_API), the trainer
#     (examples/train_mlp_cuda.cu), the Python library (python/dropouth_cuda_lib.cu) and
#     the benchmarks (bench_cuda, matmul_cost_cuda);
#  3. bench/torch_cuda.py parses; bench/cuda_ab.py (make bench-cuda-ab) on made-up runs.
# The GPU runs themselves are `make test-cuda` and `make bench-cuda`.
# nvcc is slow on two cores: its outputs are reused while a hash of the sources, the
# flags and the nvcc version is unchanged (DROPOUT_NVCC_FRESH=1 forces a rebuild).

if command -v c++ >/dev/null 2>&1; then
   build cuda_logic_cxx c++ -x c++ -std=c++11 -O2 $WARN -I. -Itests tests/cuda/test_cuda_logic.c -o "$BUILD/test_cuda_logic_cxx"
else
   say "SKIP build cuda_logic_cxx: no c++ compiler"
fi

NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$NVCC" ] && ! command -v g++ >/dev/null 2>&1; then
   say "SKIP build nvcc_kernels: nvcc's host compiler g++ not found"
elif [ -x "$NVCC" ]; then
   NVFLAGS="-std=c++14 -O2 -Werror all-warnings -Xcompiler -Wall,-Wextra -I. -Itests"
   ARCHS="-gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90"
   SM90="-gencode arch=compute_90,code=sm_90"
   key=$( { cat dropout.h dropout_v0.h dropout_cuda.cuh dropout_cuda_v0.cuh tests/cuda/test_cuda.cu tests/cuda/variants_cuda.cu tests/cuda/test_cuda_run.cu \
            tests/cuda/test_cuda_v0.cu tests/cuda/views.h tests/check.h bench/bench_cuda.cu bench/matmul_cost_cuda.cu \
            examples/train_mlp_cuda.cu examples/mlp_run.h examples/mlp_model.h examples/mlp_math.h python/dropouth_cuda_lib.cu
          echo "$NVFLAGS $ARCHS"; "$NVCC" --version; } | cksum | cut -d' ' -f1)
   stamp=$BUILD/nvcc.stamp
   if [ "${DROPOUT_NVCC_FRESH:-0}" != 1 ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
      say "PASS build nvcc_kernels_sm75_sm90 (reused: sources unchanged since the last build)"
      say "PASS build nvcc_variants_sm90 (reused)"
      say "PASS build nvcc_run_sm90 (reused)"
      say "PASS build nvcc_v0_program_sm90 (reused)"
      say "PASS build nvcc_trainer_sm90 (reused)"
      say "PASS build nvcc_python_lib_sm90 (reused)"
      say "PASS build nvcc_bench_sm90 (reused)"
      say "PASS build nvcc_matmul_cost_sm90 (reused)"
   else
      rm -f "$stamp"
      for b in test_cuda variants_cuda test_cuda_run test_cuda_v0 train_mlp_cuda libdropouth_cuda.so bench_cuda matmul_cost_cuda; do
         rm -f "$BUILD/$b"   # a failed build must not leave an old binary behind
      done
      t0=$(date +%s)
      # two lanes (two cores): the two-architecture kernel build and two programs, the other five
      (
         build nvcc_kernels_sm75_sm90 "$NVCC" $NVFLAGS $ARCHS tests/cuda/test_cuda.cu -o "$BUILD/test_cuda"
         build nvcc_run_sm90 "$NVCC" $NVFLAGS $SM90 tests/cuda/test_cuda_run.cu -o "$BUILD/test_cuda_run"
         build nvcc_v0_program_sm90 "$NVCC" $NVFLAGS $SM90 tests/cuda/test_cuda_v0.cu -o "$BUILD/test_cuda_v0"
      ) & nv_lane_a=$!
      (
         build nvcc_variants_sm90 "$NVCC" $NVFLAGS $SM90 tests/cuda/variants_cuda.cu -o "$BUILD/variants_cuda"
         build nvcc_trainer_sm90 "$NVCC" $NVFLAGS -Xcompiler -ffp-contract=off $SM90 examples/train_mlp_cuda.cu -o "$BUILD/train_mlp_cuda" -lpthread
         build nvcc_python_lib_sm90 "$NVCC" $NVFLAGS $SM90 -shared -Xcompiler -fPIC python/dropouth_cuda_lib.cu -o "$BUILD/libdropouth_cuda.so"
         build nvcc_bench_sm90 "$NVCC" $NVFLAGS $SM90 bench/bench_cuda.cu -o "$BUILD/bench_cuda"
         build nvcc_matmul_cost_sm90 "$NVCC" $NVFLAGS -Xcompiler -ffp-contract=off -gencode arch=compute_90,code=sm_90 bench/matmul_cost_cuda.cu -o "$BUILD/matmul_cost_cuda" -lcublas
      ) & nv_lane_b=$!
      wait $nv_lane_a; wait $nv_lane_b   # these two only: the xarch builds run in the background too
      echo "    nvcc builds took $(( $(date +%s) - t0 )) s"
      ok=1
      for b in test_cuda variants_cuda test_cuda_run test_cuda_v0 train_mlp_cuda libdropouth_cuda.so bench_cuda matmul_cost_cuda; do
         [ -f "$BUILD/$b" ] || ok=0
      done
      [ $ok = 1 ] && echo "$key" >"$stamp"
   fi
else
   say "SKIP build nvcc_kernels: nvcc not found (set NVCC=...)"
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
