# covers: the tests' layout: every file that looks like a test runs, suites and docs say what runs
# oracle: the rule in tests/README.md (tests/<area>/test_*.c run by tests/run.sh, the rest named by a suite)
# needs: sh, grep, awk; git for the file list (else find)
# Names start with lo_ because this file is sourced into run.sh's shell.

# the files of the checkout: tracked and new (not the ignored build outputs)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
   lo_files=$(git ls-files -co --exclude-standard | sort -u)
else
   lo_files=$(find . -path ./build -prune -o -path ./.git -prune -o -type f -print | sed 's|^\./||' | sort)
fi

# 1. a file that looks like a test (test_*, *_test.*, suite_*) is run: it is a
#    tests/<area>/test_*.c (the runner builds and runs it), or a suite names it
lo_orphans=""; lo_n=0
for lo_f in $(printf '%s\n' "$lo_files" | grep -E '(^|/)(test_[^/]*|[^/]*_test\.[^/]*|suite_[^/]*)$'); do
   [ -e "$lo_f" ] || continue
   lo_n=$((lo_n + 1))
   case $lo_f in tests/*/*/*) ;; tests/*/test_*.c) continue ;; esac
   lo_base=$(basename "$lo_f")
   lo_area=$(echo "$lo_f" | sed -n 's|^tests/\([^/]*\)/.*|\1|p')
   if grep -qF -- "$lo_f" tests/*/suite.sh 2>/dev/null; then continue; fi
   if [ -n "$lo_area" ] && [ -f "tests/$lo_area/suite.sh" ] && grep -qF -- "$lo_base" "tests/$lo_area/suite.sh"; then continue; fi
   lo_orphans="$lo_orphans $lo_f"
done
if [ -z "$lo_orphans" ]; then
   say "PASS layout: all $lo_n files named like tests run (tests/<area>/test_*.c by the runner, the rest named by a suite)"
else
   say "FAIL layout: looks like a test, but nothing runs it:$lo_orphans (move it to tests/<area>/test_*.c or name it in tests/<area>/suite.sh)"
fi

# 2. every area runs something, and every suite opens with its three comment lines
lo_empty=""; lo_bare=""
for lo_d in tests/*/; do
   lo_d=${lo_d%/}
   if [ ! -f "$lo_d/suite.sh" ] && ! ls "$lo_d"/test_*.c >/dev/null 2>&1; then lo_empty="$lo_empty $lo_d/"; fi
   if [ -f "$lo_d/suite.sh" ] && [ "$(head -n 3 "$lo_d/suite.sh" | grep -c '^# ')" -ne 3 ]; then lo_bare="$lo_bare $lo_d/suite.sh"; fi
done
if [ -z "$lo_empty" ]; then say "PASS layout: every tests/<area>/ has a suite.sh or a test_*.c"
else say "FAIL layout: nothing runs in:$lo_empty"; fi
if [ -z "$lo_bare" ]; then say "PASS layout: every suite opens with three comment lines (covers, oracle, needs)"
else say "FAIL layout: these suites do not open with three comment lines (covers, oracle, needs):$lo_bare"; fi

# 3. one include rule: C and CUDA files under tests/ include "check.h" (built with -I. -Itests),
#    never a path into tests/ or out of it
lo_inc=$(printf '%s\n' "$lo_files" | grep -E '^tests/.*\.(c|h|cu|cuh)$' | while read -r lo_f; do
   [ -f "$lo_f" ] && grep -l -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"(\.\./|tests/)' "$lo_f"; done | tr '\n' ' ')
if [ -z "$lo_inc" ]; then say "PASS layout: tests' C files include \"check.h\" and \"dropout.h\" by name (-I. -Itests)"
else say "FAIL layout: an #include with a path into or out of tests/ in: $lo_inc(use -I. -Itests and the bare name)"; fi

# 4. tests/README.md's table has a row for every area, and what the docs say runs a test exists
lo_norow=""
for lo_d in tests/*/; do
   lo_a=$(basename "$lo_d")
   grep -qE "^\| *\`?$lo_a/?\`? *\|" tests/README.md 2>/dev/null || lo_norow="$lo_norow $lo_a"
done
if [ -z "$lo_norow" ]; then say "PASS layout: tests/README.md has a row for every area"
else say "FAIL layout: tests/README.md has no row for:$lo_norow"; fi
# each area's row names every file and folder of the area (a reader looks there first for what
# a file is for), by its name or by a glob the row writes (`*.expected`, compile_fail's `*.c`)
lo_unnamed=""
for lo_d in tests/*/; do
   lo_a=$(basename "$lo_d")
   lo_row=$(grep -E "^\| *\`?$lo_a/?\`? *\|" tests/README.md 2>/dev/null | head -n 1)
   [ -n "$lo_row" ] || continue
   lo_globs=$(printf '%s\n' "$lo_row" | grep -oE '\*\.[A-Za-z0-9]+' | sort -u)
   for lo_f in $(printf '%s\n' "$lo_files" | sed -n "s|^tests/$lo_a/\([^/]*\).*|\1|p" | sort -u); do
      case $lo_row in *"$lo_f"*) continue ;; esac
      lo_hit=""
      for lo_g in $lo_globs; do
         # shellcheck disable=SC2254 # the glob is the row's, matched on purpose
         case $lo_f in $lo_g) lo_hit=1 ;; esac
      done
      [ -n "$lo_hit" ] || lo_unnamed="$lo_unnamed tests/$lo_a/$lo_f"
   done
done
if [ -z "$lo_unnamed" ]; then say "PASS layout: each area's row of tests/README.md names every file of the area"
else say "FAIL layout: tests/README.md's rows do not name:$lo_unnamed (add each to its area's row)"; fi
lo_gone=""
for lo_doc in README.md docs/*.md tests/README.md Makefile .ci/run; do
   [ -f "$lo_doc" ] || continue
   for lo_p in $(grep -oE 'tests/[A-Za-z0-9_./-]*[A-Za-z0-9_]' "$lo_doc" | sort -u); do
      case $lo_p in *'*'*|*'<'*) continue ;; esac
      [ -e "$lo_p" ] || lo_gone="$lo_gone $lo_doc:$lo_p"
   done
done
if [ -z "$lo_gone" ]; then say "PASS layout: every tests/ path named in README.md, docs/, tests/README.md, Makefile, .ci/run exists"
else say "FAIL layout: these name a tests/ path that does not exist:$lo_gone"; fi
