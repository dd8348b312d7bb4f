# covers: the Python package dropouth (python/): install, NumPy, PyTorch, checkpointing, data parallel, docs/PYTHON.md
# oracle: an independent NumPy Philox (test_numpy.py); torch and the step without checkpointing (test_torch.py); one process (test_ddp.py)
# needs: /usr/bin/python3 with numpy; optional torch, pip + setuptools + wheel + venv (else SKIP; the checkout is tested instead)
#
# 1. installs the package as a user would, into a virtual environment that sees Debian's numpy and torch
#    (python3 -m venv --system-site-packages; python -m pip install --no-build-isolation --no-index), from a copy
#    of the sources so that the checkout stays clean; where pip or venv is missing, the checkout is used (SKIP);
# 2. runs the tests with that interpreter from outside the repository, so `import dropouth` is the installed one;
# 3. docs/PYTHON.md: every python block runs and prints what the page shows.
# The CUDA library is built by the install only where a GPU is (nvidia-smi works) or DROPOUTH_TEST_CUDA=1.
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3 || echo python3)
PYB=$BUILD/python
if ! "$PY" -c "import numpy" >/dev/null 2>&1; then
   say "SKIP python: $PY cannot import numpy (apt-get install python3-numpy)"
else
   mkdir -p "$PYB"
   ROOT=$(pwd)
   PYB_ABS=$(cd "$PYB" && pwd)
   # the library alone, as `make python` builds it: warning-free under the tests' flags
   build python_lib $CC -std=c99 -O2 $WARN -shared -fPIC python/dropouth_lib.c -o "$PYB/libdropouth.so"
   RUNPY=
   if "$PY" -c "import venv, pip" >/dev/null 2>&1; then
      rm -rf "$PYB/src" "$PYB/venv"
      mkdir -p "$PYB/src"
      cp -R python dropout.h dropout_cuda.cuh "$PYB/src/"
      rm -rf "$PYB/src/python/build" "$PYB/src/python/"*.egg-info
      cuda_env=DROPOUTH_NO_CUDA=1
      if [ "${DROPOUTH_TEST_CUDA:-}" = 1 ] || nvidia-smi >/dev/null 2>&1; then cuda_env=DROPOUTH_CUDA=1; fi
      t0=$(date +%s)
      if "$PY" -m venv --system-site-packages "$PYB/venv" >"$PYB/install.log" 2>&1 &&
         (cd "$PYB/src" && env $cuda_env "$PYB_ABS/venv/bin/python" -m pip install --no-build-isolation --no-index ./python) \
            >>"$PYB/install.log" 2>&1; then
         say "PASS python install: python3 -m venv --system-site-packages + pip install --no-build-isolation --no-index ./python (offline, $(( $(date +%s) - t0 )) s)"
         RUNPY=$PYB_ABS/venv/bin/python
         where=$(cd / && "$RUNPY" -c "import dropouth, os; print(os.path.dirname(dropouth.__file__))" 2>&1)
         case $where in
            "$PYB_ABS"/venv/*) say "PASS python install: import dropouth from / finds the installed package ($where)";;
            *) say "FAIL python install: import dropouth from / gave: $where";;
         esac
         isa=$(cd / && "$RUNPY" -c "import dropouth._lib as l; print(l.isa(), l.cpu().dropouth_cpu_level())" 2>&1)
         case $(uname -m) in
            x86_64)
               n=$(ls "$PYB/venv"/lib/python3*/site-packages/dropouth/_dropouth_cpu*.so 2>/dev/null | wc -l)
               case "$n $isa" in
                  "3 x86-64 0"|"3 avx2 1"|"3 avx512 2") say "PASS python install: 3 CPU builds (x86-64, AVX2, AVX-512); import loads the best this CPU runs: $isa";;
                  *) say "FAIL python install: $n CPU builds; the one loaded and the CPU's level: $isa";;
               esac;;
            *) say "SKIP python install: ISA builds: x86-64 only (this is $(uname -m))";;
         esac
         if [ "$cuda_env" = DROPOUTH_NO_CUDA=1 ]; then
            say "SKIP python install: CUDA library: no GPU here to run it (DROPOUTH_TEST_CUDA=1 builds it with nvcc)"
         elif ls "$PYB/venv"/lib/python3*/site-packages/dropouth/_dropouth_cuda.so >/dev/null 2>&1; then
            say "PASS python install: the CUDA library was built with nvcc"
         else
            say "FAIL python install: the CUDA library was not built: $(grep dropouth: "$PYB/install.log" | tail -n 2 | tr '\n' ' ')"
         fi
      else
         say "FAIL python install: pip install --no-build-isolation ./python failed: $(tail -n 5 "$PYB/install.log" | tr '\n' ' ' | head -c 600)"
      fi
   else
      say "SKIP python install: $PY has no venv or pip (apt-get install python3-venv python3-pip python3-setuptools python3-wheel); testing the checkout"
   fi
   # the programs' environment (passed with env, so nothing leaks into the suites after this one)
   PYENV="DROPOUT_HEADER=$ROOT/dropout.h"
   if [ -z "$RUNPY" ] && [ -f "$PYB/libdropouth.so" ]; then   # the checkout instead
      RUNPY=$PY
      PYENV="$PYENV DROPOUTH_LIB=$PYB_ABS/libdropouth.so PYTHONPATH=$ROOT/python"
   fi
   if [ -n "$RUNPY" ]; then
      run_prog python_numpy env $PYENV "$RUNPY" tests/python/test_numpy.py
      if env $PYENV "$RUNPY" -c "import torch" >/dev/null 2>&1; then
         run_prog python_torch env $PYENV "$RUNPY" tests/python/test_torch.py
         run_prog python_ddp env $PYENV "$RUNPY" tests/python/test_ddp.py
      else
         say "SKIP python torch: $RUNPY cannot import torch (apt-get install python3-torch)"
      fi
      run_prog python_doc env $PYENV "$RUNPY" tests/python/doc_python.py docs/PYTHON.md
   fi
fi
