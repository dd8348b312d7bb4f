#!/bin/sh
# gpu_peers.sh - `make gpu-peers` (part of `make gpu`): on a GPU machine, the two peers that
# CI can only build: the Python package's CUDA half, and dropout_opencl.h on the GPU's own
# OpenCL driver. Same output as tests/run.sh (tests/lib.sh); the last line counts.
#
# 1. Python: the checkout's two libraries (make python python-cuda), then the package's
#    tests with `python3` (the interpreter on PATH: on a CUDA image, the one that holds
#    torch), the CUDA scenarios included: outputs and gradients == the CPU's bit for bit,
#    seeding by torch.cuda.manual_seed, gradients under checkpointing == without.
# 2. OpenCL: the tests, the trainer (make demo's weights) and the benchmark, on the first
#    platform's first device (each program names it). CUDA containers often carry NVIDIA's OpenCL driver (libnvidia-opencl.so.1)
#    without registering it in /etc/OpenCL/vendors: then it is named to the loader through
#    OCL_ICD_FILENAMES (ocl-icd's and Khronos's loaders both read it). Headers and loader:
#    the system's, else the CUDA toolkit's (include/CL, lib64/libOpenCL.so).
# Needs: a GPU; else each part prints SKIP with the reason. GPU_PEERS="opencl" (or
# "python") runs that part alone: a rerun after a fix, on a machine lent for minutes.
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build/gpu-peers}
. ./tests/lib.sh
PY=${PYTHON:-python3}
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")")}
ROOT=$(pwd)

PARTS=" ${GPU_PEERS:-python opencl} "
# ---- 1. Python ------------------------------------------------------------------------------
if [ "${PARTS#* python }" = "$PARTS" ]; then
   say "SKIP gpu python: not asked for (GPU_PEERS=${GPU_PEERS:-})"
elif ! "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" >/dev/null 2>&1; then
   say "SKIP gpu python: $PY cannot import torch or sees no CUDA device"
else
   build python_libs make --no-print-directory python python-cuda
   if [ -f build/python/libdropouth.so ] && [ -f build/python/libdropouth_cuda.so ]; then
      for t in test_torch test_numpy test_ddp; do
         run_prog "python_$t" env DROPOUTH_LIB="$ROOT/build/python/libdropouth.so" \
            DROPOUTH_CUDA_LIB="$ROOT/build/python/libdropouth_cuda.so" PYTHONPATH="$ROOT/python" \
            DROPOUT_HEADER="$ROOT/dropout.h" "$PY" "tests/python/$t.py"
      done
      run_prog python_doc env DROPOUTH_LIB="$ROOT/build/python/libdropouth.so" \
         DROPOUTH_CUDA_LIB="$ROOT/build/python/libdropouth_cuda.so" PYTHONPATH="$ROOT/python" \
         DROPOUT_HEADER="$ROOT/dropout.h" "$PY" tests/python/doc_python.py docs/PYTHON.md
      # the CUDA scenarios must have run, not skipped: this is the GPU machine
      if grep -q '^PASS torch CUDA' "$BUILD/python_test_torch.out"; then
         say "PASS gpu python: the CUDA scenarios ran ($(grep -c '^PASS torch CUDA' "$BUILD/python_test_torch.out") PASS lines)"
      else
         say "FAIL gpu python: torch sees a GPU, but test_torch.py ran no CUDA scenario"
      fi
   fi
fi

# ---- 2. OpenCL ------------------------------------------------------------------------------
mkdir -p "$BUILD/opencl"
probe='#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
int main(void){cl_uint n;return (int)clGetPlatformIDs(0,0,&n);}'
OCL=""
for flags in "" "-I$CUDA_HOME/include -L$CUDA_HOME/lib64"; do
   # shellcheck disable=SC2086 # $flags is a flag list
   if printf '%s\n' "$probe" | $CC -x c - $flags -o "$BUILD/opencl/probe" -lOpenCL >/dev/null 2>&1; then OCL="ok $flags"; break; fi
done
if [ "${PARTS#* opencl }" = "$PARTS" ]; then
   say "SKIP gpu opencl: not asked for (GPU_PEERS=${GPU_PEERS:-})"
elif [ -z "$OCL" ]; then
   say "SKIP gpu opencl: no CL/cl.h and libOpenCL here or in $CUDA_HOME (apt-get install ocl-icd-opencl-dev opencl-c-headers)"
else
   OCLF=${OCL#ok}
   lib=${OCLF##*-L}; case $OCLF in *-L*) LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}; export LD_LIBRARY_PATH;; esac
   POCL_CACHE_DIR=${POCL_CACHE_DIR:-$ROOT/$BUILD/opencl/pocl-cache}; export POCL_CACHE_DIR   # (PoCL, where it is the device)
   nv=""
   if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
      for d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
         [ -f "$d/libnvidia-opencl.so.1" ] && { nv=$d/libnvidia-opencl.so.1; break; }
      done
   fi
   [ -n "$nv" ] && { OCL_ICD_FILENAMES=$nv; export OCL_ICD_FILENAMES; echo "    (NVIDIA's OpenCL driver, unregistered here: OCL_ICD_FILENAMES=$nv)"; }
   # shellcheck disable=SC2086 # $OCLF is a flag list
   build gpu_opencl_vs_cpu $CC -std=c99 -O2 $WARN -ffp-contract=off -I. $OCLF tests/opencl/opencl_vs_cpu.c -o "$BUILD/opencl/opencl_vs_cpu" -lOpenCL
   # shellcheck disable=SC2086
   build gpu_opencl_train $CC -std=c99 -O2 $WARN -ffp-contract=off -I. $OCLF examples/train_mlp_opencl.c -o "$BUILD/opencl/train_mlp_opencl" -lOpenCL -lpthread -lm
   # shellcheck disable=SC2086
   build gpu_opencl_bench $CC -std=c99 -O2 $WARN -I. $OCLF bench/bench_opencl.c -o "$BUILD/opencl/bench_opencl" -lOpenCL
   # the programs take the first platform's first device; each prints its name
   run_prog gpu_opencl_vs_cpu "$BUILD/opencl/opencl_vs_cpu"
   run_prog gpu_opencl_train "$BUILD/opencl/train_mlp_opencl"
   # up to 2^26 elements where nvidia-smi answers, 2^20 elsewhere (a CPU device: PoCL)
   big=20; nvidia-smi >/dev/null 2>&1 && big=26
   out=${OUT:-$BUILD}/bench_opencl.md
   DROPOUT_BENCH_MAX_LOG2=${OPENCL_BENCH_MAX_LOG2:-$big} "$BUILD/opencl/bench_opencl" "$out" >"$BUILD/opencl/bench.log" 2>&1
   if grep -q '^saved' "$BUILD/opencl/bench.log"; then
      say "PASS gpu opencl bench: $(grep -m1 'device:' "$out" | sed 's/^- //'); report $out"
   elif grep -q '^SKIP' "$BUILD/opencl/bench.log"; then
      say "$(grep -m1 '^SKIP' "$BUILD/opencl/bench.log")"
   else
      say "FAIL gpu opencl bench: $(tail -n 3 "$BUILD/opencl/bench.log" | tr '\n' ' ')"
   fi
fi
tally
