# covers: dropout_opencl.h - every op, dtype, draw width, view and fill on an OpenCL device; its C99/C++11 builds; its embedded dropout.h is the current one; the demo's OpenCL twin; a build that flushes subnormals and a queue of another device (build_checks.c)
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
   # what the library sees besides the arguments: the program as the driver built it (a
   # driver's own option that flushes subnormals: PoCL's POCL_EXTRA_BUILD_FLAGS), and the
   # queue's device (a context of two: PoCL's POCL_DEVICES)
   build opencl_build_checks $CC -std=c99 -O2 $WARN -ffp-contract=off -I. tests/opencl/build_checks.c -o "$BUILD/opencl/build_checks" -lOpenCL
   if [ -x "$BUILD/opencl/build_checks" ]; then
      run_prog opencl_build_checks "$BUILD/opencl/build_checks" plain
      run_prog opencl_build_checks_flushing env POCL_EXTRA_BUILD_FLAGS=-cl-denorms-are-zero "$BUILD/opencl/build_checks" flushing
      run_prog opencl_build_checks_devices env POCL_DEVICES="pthread basic" "$BUILD/opencl/build_checks" two_devices
   fi
   # USE_HOST_PTR buffers over overlapping host memory, on a 64- and a 32-bit host (OpenCL
   # stand-ins: no 32-bit driver here; qemu-i386 where this kernel cannot run i386 programs)
   build opencl_host_ptr_mock $CC -std=c99 -O1 $WARN -I. tests/opencl/host_ptr_mock.c -o "$BUILD/opencl/host_ptr_mock"
   [ -x "$BUILD/opencl/host_ptr_mock" ] && run_prog opencl_host_ptr_mock "$BUILD/opencl/host_ptr_mock"
   if printf 'int main(void){return 0;}\n' | gcc -m32 -x c - -o "$BUILD/opencl/probe32" >/dev/null 2>&1; then
      build opencl_host_ptr_mock32 gcc -std=c99 -O1 -m32 -msse2 -mfpmath=sse $WARN -I. tests/opencl/host_ptr_mock.c -o "$BUILD/opencl/host_ptr_mock32"
      if [ ! -x "$BUILD/opencl/host_ptr_mock32" ]; then :
      elif "$BUILD/opencl/probe32" 2>/dev/null; then run_prog opencl_host_ptr_mock32 "$BUILD/opencl/host_ptr_mock32"
      elif command -v qemu-i386 >/dev/null 2>&1; then run_prog opencl_host_ptr_mock32 qemu-i386 "$BUILD/opencl/host_ptr_mock32"
      else say "SKIP opencl host pointers (32-bit host): this kernel runs no i386 program and there is no qemu-i386 (apt-get install qemu-user)"; fi
   else
      say "SKIP opencl host pointers (32-bit host): gcc -m32 cannot build here (apt-get install gcc-12-multilib)"
   fi
   # the demo trainer with its dropout on the device: make demo's weights, bit for bit
   build opencl_train_mlp $CC -std=c99 -O2 $WARN -ffp-contract=off -I. examples/train_mlp_opencl.c -o "$BUILD/opencl/train_mlp_opencl" -lOpenCL -lpthread -lm
   [ -x "$BUILD/opencl/train_mlp_opencl" ] && run_prog train_mlp_opencl "$BUILD/opencl/train_mlp_opencl"
fi
