"""The MATLAB/Octave binding against the Python package (python/dropouth): the same call
without a draw width gives the same mask in both (the default-width rule is written twice,
in matlab/dropouth_mex.c and python/dropouth/__init__.py), and an m-by-n Octave array gets
the bits of its row-major NumPy twin, the n-by-m transpose (docs/MATLAB.md). Reads what
check_bits.m wrote to DIR; run with python/ on sys.path and DROPOUTH_LIB set."""
import os
import sys

import numpy as np

import dropouth

d = sys.argv[1]
PS = [0.1, 0.3, 0.001, 0.5, 0.77, 1e-6, 0.999]      # check_bits.m's list
M, N = 37, 11

bad = []
for k, p in enumerate(PS, 1):
    got = np.fromfile(os.path.join(d, "twin_mask%d.bin" % k), np.uint8)
    want = dropouth.mask(M * N, p, seed=2024, stream=k, pos=1000 * k).astype(np.uint8)
    if got.size != want.size or not np.array_equal(got, want):
        bad.append("p=%g (Python's width %d)" % (p, dropouth.default_bits(p)))
if bad:
    print("FAIL octave python: dropouth.mask without 'Bits' differs from Python's for " + ", ".join(bad))
else:
    print("PASS octave python: dropouth.mask without 'Bits' equals the Python package's mask for %d p "
          "(widths %s)" % (len(PS), sorted(set(dropouth.default_bits(p) for p in PS))))

# the same 37-by-11 matrix: Octave's column-major bytes, and a row-major NumPy array
x_cm = np.fromfile(os.path.join(d, "twin_x.bin"), np.float64)
A = np.ascontiguousarray(x_cm.reshape(N, M).T)        # A[i, j] = x(i+1, j+1), row-major
y_oct = np.fromfile(os.path.join(d, "twin_y.bin"), np.uint8)
y_twin, _ = dropouth.forward(A.T, 0.3, seed=2024, stream=9, pos=77)       # the docs' twin
y_plain, _ = dropouth.forward(A, 0.3, seed=2024, stream=9, pos=77)        # not the twin
same_twin = np.array_equal(np.frombuffer(y_twin.tobytes(), np.uint8), y_oct)
same_plain = np.array_equal(np.frombuffer(y_plain.T.copy().tobytes(), np.uint8), y_oct)
if same_twin and not same_plain:
    print("PASS octave python: a 37-by-11 Octave array gets the bits of NumPy's dropouth.forward(A.T), "
          "not of dropouth.forward(A)")
else:
    print("FAIL octave python: twin A.T equal: %s, plain A equal: %s (expected True, False)" % (same_twin, same_plain))
