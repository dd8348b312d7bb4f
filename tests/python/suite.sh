# covers: python/dropouth.py (NumPy, PyTorch autograd) and docs/PYTHON.md's blocks
# oracle: an independent NumPy Philox (test_python.py); the output docs/PYTHON.md shows
# needs: cc, /usr/bin/python3 with numpy; optional torch (else SKIP)
#  1. builds the shared library the module loads (what `make python` builds);
#  2. tests/python/test_python.py: the NumPy API against an independent NumPy Philox oracle, errors,
#     and with PyTorch: autograd, gradcheck, the Dropout module, threads, checkpoint/resume
#     (and CUDA tensors against the CPU where a GPU and build/python/libdropouth_cuda.so exist);
#  3. docs/PYTHON.md: every python block runs and prints what the page shows.
# Debian's python3 (/usr/bin/python3) has python3-numpy and python3-torch; another python3
# on PATH may not. Missing pieces print SKIP lines.
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3 || echo python3)
if ! "$PY" -c "import numpy" >/dev/null 2>&1; then
   say "SKIP python: $PY cannot import numpy (apt-get install python3-numpy)"
else
   mkdir -p "$BUILD/python"
   build python_lib $CC -std=c99 -O2 $WARN -shared -fPIC python/dropouth_lib.c -o "$BUILD/python/libdropouth.so"
   if [ -f "$BUILD/python/libdropouth.so" ]; then
      export DROPOUTH_LIB="$BUILD/python/libdropouth.so"
      run_prog test_python "$PY" tests/python/test_python.py
      run_prog doc_python "$PY" tests/python/doc_python.py docs/PYTHON.md
      unset DROPOUTH_LIB
   fi
fi
