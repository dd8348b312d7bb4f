# covers: the same bits on every instruction set, byte order and data model (12 targets), three refusals
# oracle: the host build's digests of tests/xarch/digest.c, line for line
# needs: cc; optional cross compilers, qemu-user, qemu-system-arm, node, clang+lld, MinGW-w64, wine (else SKIP)
# tests/xarch/digest.c (the whole API on fixed inputs, one hash per group) is built for
# this host and for other ISAs and byte orders, each run natively where this kernel can
# (i386 on most x86-64 kernels, aarch64 on an Arm host) and under its qemu-user emulator
# where it cannot, or under node or qemu-system-arm, and every line must equal the host's:
#   aarch64 (NEON), armhf (clang, lld), i386 with SSE2 math (-O2, and -O0: nothing inlined, where a
#   float returned in x87's st(0) would quiet a signalling NaN), s390x (big-endian), riscv64,
#   wasm32 (clang -nostdlib, run by node; scalar, and the SIMD128 path with -msimd128
#   -mbulk-memory, which lowers the path's memcpy calls to memory.copy), Cortex-M4 with no
#   libc (arm-none-eabi-gcc -Os, semihosting under qemu-system-arm -M mps2-an386), soft float and single-precision FPU,
#   Windows x64 (MinGW-w64: LLP64, the Windows calling convention; SSE2 and -march=x86-64-v3),
#   run under wine where it is installed.
# And two builds that must refuse with the fix in the message: i386 x87 (gcc -m32) and
# s390x in strict ISO C, both FLT_EVAL_METHOD != 0 (float or double evaluated wider); and
# AVR (avr-gcc: a 16-bit int, a 32-bit double), the declarations alone too.
# A missing cross compiler, libc or emulator is a SKIP line (.ci/run installs them).
# The builds start in tests/xarch/start.sh (run.sh sources it early). Names start with xa_.

[ -n "${xa_started:-}" ] || . ./tests/xarch/start.sh

# xa_runner NAME RUNNER BINARY: run it, keep the digest lines
xa_runner() {
   case $2 in
      -|native) "$3" ;;
      node) node tests/xarch/run_wasm.js "$3" ;;
      qemu-system-arm) timeout 300 qemu-system-arm $xa_qemu_m4 "$3" 2>&1 ;;
      wine)   # a Windows program's text-mode stdout ends its lines with \r\n
         WINEPREFIX=$xa_wineprefix WINEDEBUG=-all timeout 300 "$xa_wine" "$3" >"$3.crlf" 2>&1 </dev/null
         xa_wrc=$?; tr -d '\r' <"$3.crlf"; return $xa_wrc ;;
      *) timeout 300 "$2" "$3" ;;
   esac
}

# xa_wine_ready: start.sh's wineboot made wine's prefix (waited for once)
xa_wine_ready() {
   if [ -n "$xa_pid_wineboot" ]; then
      wait "$xa_pid_wineboot"; xa_wineboot_rc=$?; xa_pid_wineboot=""
   fi
   [ "${xa_wineboot_rc:-0}" -eq 0 ]
}

# ---- wait for each build, run it, compare with the host (the host comes first)
xa_host=""
for xa_t in $xa_ok; do
   xa_n=${xa_t%%:*}; xa_run=${xa_t#*:}
   eval "xa_pid=\$xa_pid_$(printf '%s' "$xa_n" | tr -c 'A-Za-z0-9' '_')"
   if ! wait "$xa_pid"; then
      say "FAIL xarch[$xa_n] build: $(head -c 600 "$xa_dir/$xa_n.build.log" | tr '\n' ' ')"; continue
   fi
   case $xa_run in
      -|native|node) ;;
      wine)
         if [ -z "$xa_wine" ]; then
            say "SKIP xarch[$xa_n] run: built (MinGW-w64, -Werror); no wine here to run a Windows program (apt-get install wine64)"; continue
         fi
         if ! xa_wine_ready; then
            say "SKIP xarch[$xa_n] run: built; wine could not make its prefix here: $(tail -c 300 "$xa_dir/wineboot.log" | tr '\n' ' ')"; continue
         fi
         case $xa_n in *-avx2) if ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
            say "SKIP xarch[$xa_n] run: built; this CPU has no AVX2"; continue; fi ;; esac ;;
      *) if ! xa_have "$xa_run"; then
            say "SKIP xarch[$xa_n] run: this kernel cannot run its programs and $xa_run is not installed (apt-get install qemu-user / qemu-system-arm)"; continue
         fi ;;
   esac
   if [ "$xa_run" = node ] && ! xa_have node; then
      say "SKIP xarch[$xa_n] run: node not installed (apt-get install nodejs)"; continue
   fi
   xa_runner "$xa_n" "$xa_run" "$xa_dir/$xa_n.bin" >"$xa_dir/$xa_n.raw" 2>&1
   xa_rc=$?
   grep -E '^[a-z]+ [0-9a-f]{16}$' "$xa_dir/$xa_n.raw" >"$xa_dir/$xa_n.out"
   xa_lines=$(wc -l <"$xa_dir/$xa_n.out")
   if [ $xa_rc -ne 0 ] || ! grep -q '^total ' "$xa_dir/$xa_n.out"; then
      say "FAIL xarch[$xa_n]: exit $xa_rc, $xa_lines digest lines: $(tail -c 300 "$xa_dir/$xa_n.raw" | tr '\n' ' ')"
   elif [ "$xa_n" = host ]; then
      xa_host=$xa_dir/host.out
      say "PASS xarch[host]: $xa_lines digests ($(grep '^total ' "$xa_host"))"
   elif [ -z "$xa_host" ]; then
      say "FAIL xarch[$xa_n]: no host digest to compare with"
   elif cmp -s "$xa_host" "$xa_dir/$xa_n.out"; then
      case $xa_run in native) xa_extra=", run natively" ;; *) xa_extra=", run under $xa_run" ;; esac
      case $xa_n in cortex-m4*) xa_extra="$xa_extra, image $(wc -c <"$xa_dir/$xa_n.bin" | tr -d ' ') bytes ELF" ;; esac
      say "PASS xarch[$xa_n]: all $xa_lines digests equal the host's$xa_extra"
   else
      say "FAIL xarch[$xa_n]: differs from the host in: $(diff "$xa_host" "$xa_dir/$xa_n.out" | sed -n 's/^> \([a-z]*\) .*/\1/p' | tr '\n' ' ')"
   fi
done

# ---- make demo as a Windows program: its weights hash and its five pictures (docs/img/
# holds them, as make demo writes them; the text ones written with Windows' \r\n)
# xa_win_demo: run it under wine in $xa_dir/win64-demo and say what it gave
xa_win_demo() {
   rm -rf "$xa_dir/win64-demo"; mkdir -p "$xa_dir/win64-demo"
   (cd "$xa_dir/win64-demo" && WINEPREFIX=$xa_wineprefix WINEDEBUG=-all timeout 300 "$xa_wine" ../win64-train_mlp.exe \
      --threads 2 --out pictures </dev/null >train_mlp.crlf 2>&1)
   xa_rc=$?
   tr -d '\r' <"$xa_dir/win64-demo/train_mlp.crlf" >"$xa_dir/win64-demo/train_mlp.out"
   xa_diff=""
   for xa_f in boundary.png masks.png loss.csv loss.svg weight_diff.svg; do
      case $xa_f in
         *.png) cmp -s "$xa_dir/win64-demo/pictures/$xa_f" "docs/img/$xa_f" || xa_diff="$xa_diff $xa_f" ;;
         *) tr -d '\r' <"$xa_dir/win64-demo/pictures/$xa_f" 2>/dev/null | cmp -s - "docs/img/$xa_f" || xa_diff="$xa_diff $xa_f" ;;
      esac
   done
   if [ $xa_rc -ne 0 ] || ! grep -q '^  REPRODUCIBLE' "$xa_dir/win64-demo/train_mlp.out"; then
      say "FAIL xarch[win64 demo]: exit $xa_rc: $(tail -c 300 "$xa_dir/win64-demo/train_mlp.out" | tr '\n' ' ')"
   elif ! grep -q '^  same seed, run again: *e950157a793eac0e vs e950157a793eac0e' "$xa_dir/win64-demo/train_mlp.out"; then
      say "FAIL xarch[win64 demo]: the dropout run's weights hash is not make demo's e950157a793eac0e"
   elif [ -n "$xa_diff" ]; then
      say "FAIL xarch[win64 demo]: pictures that differ from docs/img/:$xa_diff"
   else
      say "PASS xarch[win64 demo]: make demo's weights hash e950157a793eac0e and its five pictures, as a Windows program under wine"
   fi
}
if [ -n "$xa_pid_wintrain" ]; then
   if ! wait "$xa_pid_wintrain"; then
      say "FAIL xarch[win64 demo] build: $(head -c 600 "$xa_dir/win64-train_mlp.build.log" | tr '\n' ' ')"
   else
      say "BUILD ok win64-train_mlp"
      if [ -z "$xa_wine" ]; then
         say "SKIP xarch[win64 demo] run: built (MinGW-w64, -Werror, static); no wine here (apt-get install wine64)"
      elif ! xa_wine_ready; then
         say "SKIP xarch[win64 demo] run: built; wine could not make its prefix here: $(tail -c 300 "$xa_dir/wineboot.log" | tr '\n' ' ')"
      else
         xa_win_demo
      fi
   fi
fi

# wine's server outlives its last program by a few seconds: stopped now, so that the run
# leaves no process behind
if [ -n "$xa_wine" ] && [ -d "$xa_wineprefix" ]; then
   WINEPREFIX=$xa_wineprefix "$(dirname "$xa_wine")/wineserver" -k >/dev/null 2>&1
fi

# ---- the refusals
if [ -n "$xa_pid_x87" ]; then
   if wait "$xa_pid_x87"; then say "FAIL xarch[i386-x87]: gcc -m32 -mfpmath=387 built the header (f64 drifts by an ulp there)"
   elif grep -q -- '-msse2 -mfpmath=sse' "$xa_dir/x87.build.log"; then say "PASS xarch[i386-x87]: refused, the message says -msse2 -mfpmath=sse"
   else say "FAIL xarch[i386-x87]: failed without the #error: $(head -c 400 "$xa_dir/x87.build.log" | tr '\n' ' ')"; fi
fi
if [ -n "$xa_pid_s390x_iso" ]; then
   if wait "$xa_pid_s390x_iso"; then say "FAIL xarch[s390x -std=c99]: built with FLT_EVAL_METHOD 1 (float evaluated in double)"
   elif grep -q 'FLT_EVAL_METHOD' "$xa_dir/s390x-iso.build.log"; then say "PASS xarch[s390x -std=c99]: refused (FLT_EVAL_METHOD 1), the message says how"
   else say "FAIL xarch[s390x -std=c99]: failed without the #error: $(head -c 400 "$xa_dir/s390x-iso.build.log" | tr '\n' ' ')"; fi
fi

# ---- flash: forward + backward f32 alone on a Cortex-M4 (-Os, --gc-sections), split into
# the library's own code and libgcc's (soft float helpers); figures in README. The rule is
# a DROPOUT_RULE_THRESHOLD constant, so no soft double may be linked: the whole .text must
# stay within 2.5 KB with the FPU and 3.5 KB without (0.1.0 took 4.5 and 5.1 KB).
if xa_have arm-none-eabi-gcc && xa_have arm-none-eabi-nm; then
   # xa_mcu NAME FPU_FLAGS [DEFINES]: mcu_fb.c compiled and linked alone into $xa_dir/NAME.elf
   # (log NAME.log); xa_soft_doubles ELF: how many soft-double helpers it links
   xa_mcu() {
      # shellcheck disable=SC2086
      arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os $2 -std=c99 $WARN -I. -Itests -ffreestanding \
            -ffunction-sections ${3:-} -c tests/xarch/mcu_fb.c -o "$xa_dir/$1.o" >"$xa_dir/$1.log" 2>&1 &&
         arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb $2 -nostdlib -Wl,--gc-sections -Wl,-e,mcu_fb \
            "$xa_dir/$1.o" -lgcc -o "$xa_dir/$1.elf" >>"$xa_dir/$1.log" 2>&1
   }
   xa_soft_doubles() { arm-none-eabi-nm "$1" | grep -cE ' (__aeabi_d[a-z0-9]+|__[a-z]+df[23])$'; }
   for xa_fpu in soft hard; do
      xa_ff=""; xa_max=3584; [ $xa_fpu = hard ] && { xa_ff="-mfloat-abi=hard -mfpu=fpv4-sp-d16"; xa_max=2560; }
      if xa_mcu "mcu_fb_$xa_fpu" "$xa_ff"; then
         arm-none-eabi-nm --defined-only "$xa_dir/mcu_fb_$xa_fpu.o" | awk '{print $NF}' >"$xa_dir/mcu_fb.own"
         # the library's functions by name; the rest of .text is libgcc (whose entry points
         # overlap, so it is counted as the remainder)
         xa_lib=$(arm-none-eabi-nm -S -t d "$xa_dir/mcu_fb_$xa_fpu.elf" | awk 'NR==FNR { own[$1] = 1; next }
            NF == 4 && ($4 in own) && $3 ~ /^[tTwW]$/ { lib += $2 } END { print lib + 0 }' "$xa_dir/mcu_fb.own" -)
         xa_text=$(arm-none-eabi-size -A "$xa_dir/mcu_fb_$xa_fpu.elf" | awk '$1 == ".text" { print $2 }')
         xa_dbl=$(xa_soft_doubles "$xa_dir/mcu_fb_$xa_fpu.elf")
         xa_msg="forward+backward f32 = $xa_text bytes: $xa_lib of dropout.h, $((xa_text - xa_lib)) of libgcc"
         if [ "$xa_text" -gt "$xa_max" ]; then say "FAIL xarch[cortex-m4 flash, $xa_fpu float]: $xa_msg, over $xa_max"
         elif [ "$xa_dbl" -ne 0 ]; then say "FAIL xarch[cortex-m4 flash, $xa_fpu float]: $xa_msg, with $xa_dbl soft-double symbols linked"
         else say "PASS xarch[cortex-m4 flash, $xa_fpu float]: $xa_msg (at most $xa_max, no soft double)"; fi
      else
         say "FAIL xarch[cortex-m4 flash]: $(head -c 400 "$xa_dir/mcu_fb_$xa_fpu.log" | tr '\n' ' ')"
      fi
   done
   # README's two other rows: the rule made at run time (mcu_fb.c, MCU_FB_RULE), the same
   # build. From a threshold it takes integers only, so no soft double may be linked either;
   # from a double p it links soft double where the FPU has none for doubles (reported).
   for xa_rule in 1:dropout_rule_init_threshold 2:dropout_rule_init; do
      for xa_fpu in soft hard; do
         xa_ff=""; [ $xa_fpu = hard ] && xa_ff="-mfloat-abi=hard -mfpu=fpv4-sp-d16"
         xa_t="xarch[cortex-m4 flash, $xa_fpu float, rule from ${xa_rule#*:}]"
         if xa_mcu mcu_fb_r "$xa_ff" "-DMCU_FB_RULE=${xa_rule%%:*}"; then
            xa_text=$(arm-none-eabi-size -A "$xa_dir/mcu_fb_r.elf" | awk '$1 == ".text" { print $2 }')
            xa_dbl=$(xa_soft_doubles "$xa_dir/mcu_fb_r.elf")
            if [ "${xa_rule%%:*}" = 1 ] && [ "$xa_dbl" -ne 0 ]; then
               say "FAIL $xa_t: $xa_text bytes, with $xa_dbl soft-double symbols linked (it works in integers)"
            else
               say "PASS $xa_t: forward+backward f32 = $xa_text bytes ($xa_dbl soft-double symbols)"
            fi
         else
            say "FAIL $xa_t: $(head -c 400 "$xa_dir/mcu_fb_r.log" | tr '\n' ' ')"
         fi
      done
   done
else
   say "SKIP xarch[cortex-m4 flash]: no arm-none-eabi-gcc (apt-get install gcc-arm-none-eabi)"
fi

# ---- stack on a Cortex-M4 (-Os, soft float): tests/xarch/mcu_stack.c paints the stack and
# counts what each call overwrote, at the default DROPOUT_ROW_CHUNK and at 64 (README's
# figures). Held: a short forward or backward to 0.5 KB, fill_uniform to 1.5 KB; at 64, the
# descriptor's runs and the fused short call to 3.5 KB (5.8-6.0 KB at the default).
if xa_have arm-none-eabi-gcc && xa_have qemu-system-arm; then
   for xa_ch in 256 64; do
      xa_t="xarch[cortex-m4 stack, DROPOUT_ROW_CHUNK=$xa_ch]"
      # shellcheck disable=SC2086 # xa_m4 is a flag list
      if arm-none-eabi-gcc -mcpu=cortex-m4 $xa_m4 -DDROPOUT_ROW_CHUNK=$xa_ch tests/xarch/mcu_stack.c -lgcc \
            -o "$xa_dir/mcu_stack_$xa_ch.elf" >"$xa_dir/mcu_stack.log" 2>&1; then
         xa_runner mcu_stack qemu-system-arm "$xa_dir/mcu_stack_$xa_ch.elf" >"$xa_dir/mcu_stack_$xa_ch.out" 2>&1
         xa_over=$(awk -v ch=$xa_ch 'NF == 3 { max = 1e9
               if ($1 == "forward_f32" || $1 == "backward_f32") max = 512
               else if ($1 == "fill_uniform_f32") max = 1536
               else if (ch == 64 && ($1 ~ /^run_/ || $1 == "bias_dropout_add_f32")) max = 3584
               if ($2 > max || $3 != 0) printf "%s %s bytes (rc %s, at most %d); ", $1, $2, $3, max }' "$xa_dir/mcu_stack_$xa_ch.out")
         xa_list=$(awk 'NF == 3 { printf "%s%s %s", sep, $1, $2; sep = ", " }' "$xa_dir/mcu_stack_$xa_ch.out")
         if [ "$(grep -c . "$xa_dir/mcu_stack_$xa_ch.out")" -ne 9 ]; then
            say "FAIL $xa_t: $(head -c 300 "$xa_dir/mcu_stack_$xa_ch.out" | tr '\n' ' ')"
         elif [ -n "$xa_over" ]; then say "FAIL $xa_t: $xa_over"
         else say "PASS $xa_t: bytes of stack: $xa_list"; fi
      else
         say "FAIL $xa_t: $(head -c 400 "$xa_dir/mcu_stack.log" | tr '\n' ' ')"
      fi
   done
else
   say "SKIP xarch[cortex-m4 stack]: no arm-none-eabi-gcc or qemu-system-arm (apt-get install gcc-arm-none-eabi qemu-system-arm)"
fi

# ---- a 16-bit int and a 32-bit double (AVR: avr-gcc 5.4's defaults): refused, a file with
# the declarations alone as the implementation, by the #errors that say why (a declarations
# file had compiled, its building blocks making rules in 24-bit arithmetic: p = 0.3 at 32
# bits gave threshold 1288490240, not 1288490189)
if xa_have avr-gcc; then
   printf '#include "dropout.h"\nint f(void);\nint f(void) { return dropout_keep(5, dropout_rule_make(0.5, 16)); }\n' >"$xa_dir/avr_decls.c"
   for xa_avr in avr_decls.c mcu_fb.c; do
      xa_src=$xa_dir/$xa_avr; [ "$xa_avr" = mcu_fb.c ] && xa_src=tests/xarch/mcu_fb.c
      if avr-gcc -mmcu=atmega2560 -Os -std=c99 -I. -Itests -c "$xa_src" -o "$xa_dir/avr.o" >"$xa_dir/avr.log" 2>&1; then
         say "FAIL xarch[avr $xa_avr]: built for a 16-bit int and a 32-bit double"
      elif grep -q 'needs an int of 32 bits' "$xa_dir/avr.log" && grep -q 'binary64 double' "$xa_dir/avr.log"; then
         say "PASS xarch[avr $xa_avr]: refused, the messages name the 16-bit int and the 32-bit double"
      else
         say "FAIL xarch[avr $xa_avr]: failed without the #errors: $(head -c 400 "$xa_dir/avr.log" | tr '\n' ' ')"
      fi
   done
else
   say "SKIP xarch[avr]: no avr-gcc (apt-get install gcc-avr avr-libc)"
fi

# ---- what a user's strict flags meet: under C89 the first error says "C99";
# -Wfloat-equal (not in -Wall -Wextra) stays quiet, for the plain include and the implementation
printf '#include "dropout.h"\nint main(void) { return 0; }\n' >"$xa_dir/plain.c"
printf '#define DROPOUT_IMPLEMENTATION\n#include "dropout.h"\nint main(void) { return 0; }\n' >"$xa_dir/impl.c"
if "$xa_hostcc" -std=c89 -I. -fsyntax-only "$xa_dir/plain.c" >"$xa_dir/c89.log" 2>&1; then
   say "FAIL header[c89]: -std=c89 compiled the header"
elif grep -m1 'error' "$xa_dir/c89.log" | grep -q 'needs C99'; then
   say "PASS header[c89]: the first error of -std=c89 is the #error that says C99"
else
   say "FAIL header[c89]: $(head -c 400 "$xa_dir/c89.log" | tr '\n' ' ')"
fi
for xa_c in gcc clang; do
   if ! xa_have $xa_c; then say "SKIP header[-Wfloat-equal, $xa_c]: not installed"; continue; fi
   if $xa_c -std=c99 $WARN -Wfloat-equal -I. -fsyntax-only "$xa_dir/plain.c" >"$xa_dir/feq.log" 2>&1 &&
      $xa_c -std=c99 $WARN -Wfloat-equal -I. -fsyntax-only "$xa_dir/impl.c" >>"$xa_dir/feq.log" 2>&1; then
      say "PASS header[-Wfloat-equal, $xa_c]: include and implementation compile clean"
   else
      say "FAIL header[-Wfloat-equal, $xa_c]: $(head -c 400 "$xa_dir/feq.log" | tr '\n' ' ')"
   fi
done
