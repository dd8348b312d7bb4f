# start.sh - the background half of tests/xarch/suite.sh and of tests/simd/suite.sh's x86 matrix:
# probes the toolchains and starts every build of tests/xarch/digest.c at once. tests/run.sh
# sources it before its own one-at-a-time test builds, so that these fill the idle core;
# each suite sources it itself when run alone (xa_started unset). Sourced, not run: the
# suites wait for the process ids it leaves in xa_pid_* and simd_pids.
xa_started=1

xa_dir=$BUILD/xarch
mkdir -p "$xa_dir"
xa_src=tests/xarch/digest.c
xa_cflags="-std=c99 -O2 $WARN -I. -Itests"
xa_hostcc=${CC:-cc}
xa_m4="-mthumb -Os -std=c99 $WARN -I. -Itests -ffreestanding -nostdlib -DXD_SEMIHOSTING -T tests/xarch/cortex_m.ld"
xa_qemu_m4="-M mps2-an386 -nographic -monitor none -serial none -semihosting-config enable=on,target=native -kernel"
xa_wasm="--target=wasm32 -nostdlib -Wl,--no-entry -Wl,--export=main -Wl,--allow-undefined"

xa_have() { command -v "$1" >/dev/null 2>&1; }

# xa_probe CMD...: does this toolchain build a trivial program here (compiler, libc, linker)?
xa_probe() {
   printf 'int main(void) { return 0; }\n' >"$xa_dir/probe.c"
   "$@" "$xa_dir/probe.c" -o "$xa_dir/probe.out" >/dev/null 2>&1
}

# xa_native: does the program the last xa_probe built start on this kernel? A kernel built
# without 32-bit x86 support cannot exec an i386 program ("Exec format error"), and an
# aarch64 kernel runs aarch64 programs itself: so whether a target needs its emulator is
# asked of the machine, never assumed from the host's name.
# XARCH_EMULATE=1 runs every such target under its emulator anyway: how to try, on a kernel
# that runs i386 programs, what CI meets on one that does not.
xa_native() { [ -z "${XARCH_EMULATE:-}" ] && timeout 20 "$xa_dir/probe.out" >/dev/null 2>&1; }

# target table: NAME|compiler|probe flags|build flags|runner|how to get it
# runner: "-" = the host itself; qemu-<arch> = a user-mode emulator, used only when the
# kernel cannot run the target's programs itself (xa_native); node; qemu-system-arm; wine
# (Windows x64 from MinGW-w64: the LLP64 model, where long is 32 bits, and the Windows
# calling convention, whose stack is 16-byte aligned under the AVX2 path's 32-byte spills).
xa_targets="
host|$xa_hostcc||$xa_cflags|-|
i386-sse|gcc|-m32 -msse2 -mfpmath=sse|$xa_cflags -m32 -msse2 -mfpmath=sse|qemu-i386|apt-get install gcc-12-multilib qemu-user
i386-sse-O0|gcc|-m32 -msse2 -mfpmath=sse|$xa_cflags -O0 -m32 -msse2 -mfpmath=sse|qemu-i386|apt-get install gcc-12-multilib qemu-user
aarch64|aarch64-linux-gnu-gcc|-static|$xa_cflags -static|qemu-aarch64|apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
armhf|clang|--target=arm-linux-gnueabihf -fuse-ld=lld -static|--target=arm-linux-gnueabihf -fuse-ld=lld -static $xa_cflags|qemu-arm|apt-get install clang lld libc6-dev-armhf-cross libgcc-12-dev-armhf-cross qemu-user
s390x|s390x-linux-gnu-gcc|-static|-std=gnu99 -O2 $WARN -I. -Itests -static|qemu-s390x|apt-get install gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user
riscv64|riscv64-linux-gnu-gcc|-static|$xa_cflags -static|qemu-riscv64|apt-get install gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user
wasm32|clang|$xa_wasm|$xa_wasm $xa_cflags|node|apt-get install clang lld nodejs
wasm32-simd128|clang|$xa_wasm -msimd128 -mbulk-memory|$xa_wasm -msimd128 -mbulk-memory $xa_cflags|node|apt-get install clang lld nodejs
cortex-m4|arm-none-eabi-gcc|-mcpu=cortex-m4 -mthumb -nostdlib -ffreestanding -c|-mcpu=cortex-m4 $xa_m4|qemu-system-arm|apt-get install gcc-arm-none-eabi qemu-system-arm
cortex-m4f|arm-none-eabi-gcc|-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -nostdlib -ffreestanding -c|-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 $xa_m4|qemu-system-arm|apt-get install gcc-arm-none-eabi qemu-system-arm
win64|x86_64-w64-mingw32-gcc||$xa_cflags|wine|apt-get install gcc-mingw-w64-x86-64-win32
win64-avx2|x86_64-w64-mingw32-gcc||$xa_cflags -march=x86-64-v3|wine|apt-get install gcc-mingw-w64-x86-64-win32"

# ---- probe each toolchain, start every build that can go
xa_ok=""
xa_old_ifs=$IFS
IFS='
'
for xa_line in $xa_targets; do
   [ -n "$xa_line" ] || continue
   IFS='|' read -r xa_n xa_cc xa_pf xa_bf xa_run xa_get <<EOF
$xa_line
EOF
   IFS=$xa_old_ifs
   rm -f "$xa_dir/$xa_n.out" "$xa_dir/$xa_n.bin"
   # shellcheck disable=SC2086 # flag lists are split on purpose
   if ! xa_have "$xa_cc" || ! xa_probe "$xa_cc" $xa_pf; then
      say "SKIP xarch[$xa_n]: $xa_cc cannot build for this target here (${xa_get:-no compiler})"
   else
      case $xa_n in cortex-m4*) xa_lib=-lgcc ;; *) xa_lib="" ;; esac
      # shellcheck disable=SC2086
      "$xa_cc" $xa_bf $xa_src $xa_lib -o "$xa_dir/$xa_n.bin" >"$xa_dir/$xa_n.build.log" 2>&1 &
      eval "xa_pid_$(printf '%s' "$xa_n" | tr -c 'A-Za-z0-9' '_')=\$!"
      case $xa_run in qemu-system-*) ;; qemu-*) xa_native && xa_run=native ;; esac
      xa_ok="$xa_ok $xa_n:$xa_run"
   fi
   IFS='
'
done
IFS=$xa_old_ifs

# Windows programs run under wine where it is installed (.ci/run installs it; without it the
# Windows builds are checked as builds and their runs SKIP). Its prefix, some 700 MB under
# $xa_dir, is made now, beside the builds (about 9 s).
xa_wine=$(command -v wine64 || command -v wine || { [ -x /usr/lib/wine/wine64 ] && echo /usr/lib/wine/wine64; })
xa_pid_wineboot=""; xa_pid_wintrain=""
xa_wineprefix=$(cd "$xa_dir" && pwd)/wine   # wine takes an absolute path only
case " $xa_ok" in
   *:wine*) if [ -n "$xa_wine" ]; then
               WINEPREFIX=$xa_wineprefix WINEDEBUG=-all "$xa_wine" wineboot --init >"$xa_dir/wineboot.log" 2>&1 </dev/null &
               xa_pid_wineboot=$!
            fi
            # and make demo's trainer as a Windows program (linked statically: its POSIX
            # threads are MinGW-w64's winpthreads, which no Windows machine has as a DLL)
            x86_64-w64-mingw32-gcc -std=c99 -O2 $WARN -ffp-contract=off -I. examples/train_mlp.c -static -lpthread -lm \
               -o "$xa_dir/win64-train_mlp.exe" >"$xa_dir/win64-train_mlp.build.log" 2>&1 &
            xa_pid_wintrain=$! ;;
esac

# the two builds that must refuse: the message must carry the fix
if xa_have gcc && xa_probe gcc -m32; then
   gcc $xa_cflags -m32 -mfpmath=387 -c $xa_src -o "$xa_dir/x87.o" >"$xa_dir/x87.build.log" 2>&1 &
   xa_pid_x87=$!
else xa_pid_x87=""; say "SKIP xarch[i386-x87]: gcc -m32 cannot build here (apt-get install gcc-12-multilib: gcc-multilib conflicts with the cross compilers)"; fi
if xa_have s390x-linux-gnu-gcc; then
   s390x-linux-gnu-gcc $xa_cflags -c $xa_src -o "$xa_dir/s390x-iso.o" >"$xa_dir/s390x-iso.build.log" 2>&1 &
   xa_pid_s390x_iso=$!
else xa_pid_s390x_iso=""; say "SKIP xarch[s390x -std=c99]: no s390x-linux-gnu-gcc (apt-get install gcc-s390x-linux-gnu)"; fi

# ---- tests/simd/suite.sh's x86 matrix: every path, four compilers, and the DROPOUT_NO_SIMD digest
simd_x86="sse2:-msse2:sse2 sse4.1:-msse4.1:sse4_1 avx2:-mavx2:avx2 avx512:-mavx512f,-mavx512bw:avx512bw"
simd_mx=$BUILD/simd_matrix
mkdir -p "$simd_mx"
simd_ref=""; simd_pids=""
if [ "$(uname -m)" = x86_64 ]; then
   rm -f "$simd_mx"/*.bin "$simd_mx"/*.built
   "$CC" -std=c99 -O2 $WARN -DDROPOUT_NO_SIMD -I. -Itests tests/xarch/digest.c -o "$simd_mx/ref.bin" >"$simd_mx/ref.build.log" 2>&1 &
   simd_pid_ref=$!
   for simd_c in gcc g++ clang clang++; do
      command -v $simd_c >/dev/null 2>&1 || continue
      case $simd_c in *++) simd_l="-x c++ -std=c++11" ;; *) simd_l="-std=c99" ;; esac
      for simd_p in $simd_x86; do
         simd_n=${simd_p%%:*}; simd_f=$(echo "$simd_p" | cut -d: -f2 | tr , ' ')
         # C++ builds in full for AVX2, and g++'s for AVX-512 too (a -Wmaybe-uninitialized
         # from g++ 12's avx512fintrin.h, a middle-end warning that -fsyntax-only never
         # sees, once broke every C++ AVX-512 -Werror build); the other paths through the C++
         # front end alone (-fsyntax-only, its warnings as errors): C and C++ share each
         # compiler's middle and back end, so a C++ digest adds a check that C++ reads the
         # code as C does (clang++'s full AVX-512 build took 13 s of CPU)
         case $simd_c-$simd_n in
            *++-avx2|g++-avx512|gcc-*|clang-*) simd_o="-o $simd_mx/$simd_c-$simd_n.bin" ;;
            *) simd_o="-fsyntax-only" ;;
         esac
         # shellcheck disable=SC2086 # flag lists are split on purpose
         { $simd_c $simd_l -O2 $WARN $simd_f -I. -Itests tests/xarch/digest.c $simd_o \
            >"$simd_mx/$simd_c-$simd_n.build.log" 2>&1 && : >"$simd_mx/$simd_c-$simd_n.built"; } &
         simd_pids="$simd_pids $!"
      done
   done
   # debug builds (-O0) of every x86 path this CPU runs, gcc (whose intrinsics are macros
   # expanded in this file there, not functions) and clang: tests/simd/suite.sh runs them
   # against the same digest. A path the CPU cannot run is left to the suite's -O0
   # front-end builds, as test_simd.c's builds this CPU cannot run are. About a second each:
   # at -O0 the library calls its bodies instead of forcing a copy into each caller
   # (DROPOUT__INLINE), which had taken gcc's AVX-512 build alone 20 s of CPU.
   simd_o0=""; simd_o0_no=""   # the NAME-O0 of each build started; COMPILER-PATH:FLAG of each not
   for simd_c in gcc clang; do
      command -v $simd_c >/dev/null 2>&1 || continue
      for simd_p in $simd_x86; do
         simd_n=${simd_p%%:*}; simd_f=$(echo "$simd_p" | cut -d: -f2 | tr , ' ')
         if ! grep -qw "${simd_p##*:}" /proc/cpuinfo 2>/dev/null; then
            simd_o0_no="$simd_o0_no $simd_c-$simd_n:${simd_p##*:}"; continue
         fi
         # shellcheck disable=SC2086 # flag lists are split on purpose
         $simd_c -std=c99 -O0 $WARN $simd_f -I. -Itests tests/xarch/digest.c -o "$simd_mx/$simd_c-$simd_n-O0.bin" \
            >"$simd_mx/$simd_c-$simd_n-O0.build.log" 2>&1 &
         simd_pids="$simd_pids $!"; simd_o0="$simd_o0 $simd_c-$simd_n-O0"
      done
   done
fi
