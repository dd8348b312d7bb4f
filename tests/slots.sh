# slots.sh - compile slots for tests/run.sh (sourced, not run): at most $TEST_SLOTS compilers
# at once (default: the CPU count + 1). Each compiler the suites call by name gets a stand-in
# in $BUILD/slots/, put first on PATH, that takes a slot (a lock on one of $TEST_SLOTS files)
# and then becomes the real compiler, which holds the slot until it and its children end.
# Why: the suites start many builds at once (the cross and x86 matrix builds with the run,
# simd's dozen test builds, nvcc's), and make test is mostly compiles. On the two-core
# machine 16 compiles at once took 20% more CPU time than the same 16 two at a time (their
# caches thrash), in three runs of each. A compiler that another one calls (nvcc's gcc,
# mpicc's) takes no slot of its own (DROPOUT_TEST_SLOT, set in the stand-in's children).
# Without flock (util-linux), or with TEST_SLOTS=0, nothing changes.
slots_n=${TEST_SLOTS:-$(($( (nproc || getconf _NPROCESSORS_ONLN) 2>/dev/null || echo 1) + 1))}
if [ "$slots_n" -gt 0 ] 2>/dev/null && command -v flock >/dev/null 2>&1 && [ -z "${DROPOUT_TEST_SLOT:-}" ]; then
   slots_dir=$(mkdir -p "$BUILD/slots" && cd "$BUILD/slots" && pwd)
   rm -f "$slots_dir"/*
   for slots_c in cc c++ gcc g++ clang clang++ nvcc x86_64-linux-gnu-gcc aarch64-linux-gnu-gcc \
                  s390x-linux-gnu-gcc riscv64-linux-gnu-gcc arm-none-eabi-gcc x86_64-w64-mingw32-gcc avr-gcc; do
      slots_real=$(command -v "$slots_c" 2>/dev/null) || continue
      case $slots_real in /*) ;; *) continue ;; esac   # a shell function or alias: left alone
      # first every slot without waiting, then a wait on one of them (chosen by process id)
      cat >"$slots_dir/$slots_c" <<EOF
#!/bin/sh
if [ -z "\${DROPOUT_TEST_SLOT:-}" ]; then
   DROPOUT_TEST_SLOT=1; export DROPOUT_TEST_SLOT
   i=0
   while [ \$i -lt $slots_n ]; do
      exec 9>"$slots_dir/slot.\$i"
      flock -n 9 && exec "$slots_real" "\$@"
      i=\$((i + 1))
   done
   exec 9>"$slots_dir/slot.\$((\$\$ % $slots_n))"
   flock 9
fi
exec "$slots_real" "\$@"
EOF
      chmod +x "$slots_dir/$slots_c"
   done
   PATH=$slots_dir:$PATH; export PATH
fi
