# covers: dropout_opencl.h - every op, dtype, draw width, view and fill on an OpenCL device; its C99/C++11 builds; its embedded dropout.h is the current one; the demo's OpenCL twin
# oracle: dropout.h's CPU functions (dropout_run, dropout_fill_*) byte for byte, guards included; Random123's Philox4x32 known answers run as an OpenCL kernel; make demo's weight hash e950157a793eac0e
# needs: an OpenCL ICD and device (Debian: pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers; PoCL runs it on the CPU), else SKIP
# (sourced by tests/run.sh: say, build, run_prog, $CC, $BUILD, $WARN)

mkdir -p "$BUILD/opencl"
# PoCL compiles each kernel on first use and caches it under $HOME/.cache by default: a CI
# user whose home is missing or read-only would fail there, so the cache lives in the build.
case $BUILD in /*) ocl_cache=$BUILD ;; *) ocl_cache=$PWD/$BUILD ;; esac
POCL_CACHE_DIR=${POCL_CACHE_DIR:-$ocl_cache/opencl/pocl-cache}; export POCL_CACHE_DIR
if sh opencl/embed.sh --check >"$BUILD/opencl/embed.log" 2>&1; then
   say "PASS opencl embedded program: dropout_opencl.h holds the current dropout.h and opencl/kernels.cl"
else
   say "FAIL opencl embedded program: $(cat "$BUILD/opencl/embed.log")"
fi

# CL/cl.h and libOpenCL: the headers and the ICD loader, without which nothing builds
if ! printf '#define CL_TARGET_OPENCL_VERSION 120\n#include <CL/cl.h>\nint main(void){cl_uint n;return (int)clGetPlatformIDs(0,0,&n);}\n' |
     $CC -x c - -o "$BUILD/opencl/probe" -lOpenCL >/dev/null 2>&1; then
   say "SKIP opencl: no OpenCL headers or libOpenCL (apt-get install ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd)"
else
   # -ffp-contract=off: the CPU oracle's own arithmetic must not fuse either
   build opencl_c99 $CC -std=c99 -O2 $WARN -ffp-contract=off -I. tests/opencl/opencl_vs_cpu.c -o "$BUILD/opencl/opencl_vs_cpu" -lOpenCL
   if command -v c++ >/dev/null 2>&1; then
      build opencl_cxx11 c++ -x c++ -std=c++11 -O2 $WARN -Wno-old-style-cast -ffp-contract=off -I. -fsyntax-only tests/opencl/opencl_vs_cpu.c
   else
      say "SKIP build opencl_cxx11: no c++ compiler"
   fi
   [ -x "$BUILD/opencl/opencl_vs_cpu" ] && run_prog opencl_vs_cpu "$BUILD/opencl/opencl_vs_cpu"
   # the demo trainer with its dropout on the device: make demo's weights, bit for bit
   build opencl_train_mlp $CC -std=c99 -O2 $WARN -ffp-contract=off -I. examples/train_mlp_opencl.c -o "$BUILD/opencl/train_mlp_opencl" -lOpenCL -lpthread -lm
   [ -x "$BUILD/opencl/train_mlp_opencl" ] && run_prog train_mlp_opencl "$BUILD/opencl/train_mlp_opencl"
fi
