"""setup.py - builds the dropouth package: the Python code and its ctypes libraries.

    python3 -m pip install --no-build-isolation ./python      (see docs/PYTHON.md)

The CPU library is python/dropouth_lib.c over ../dropout.h, compiled by setuptools as an
extension file (it has no Python entry point: ctypes loads it). Where nvcc works, the CUDA one
(python/dropouth_cuda_lib.cu over ../dropout_cuda.cuh) is built beside it; where it does not,
the package is CPU-only and says so (set DROPOUTH_NO_CUDA=1 to skip the attempt).
dropouth.__version__ is DROPOUT_VERSION_STRING, read from ../dropout.h here, at build time.
"""
import os
import re
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def header_version():
    with open(os.path.join(ROOT, "dropout.h"), encoding="utf-8") as f:
        m = re.search(r'#define DROPOUT_VERSION_STRING "([^"]+)"', f.read())
    if not m:
        raise RuntimeError("DROPOUT_VERSION_STRING not found in %s" % os.path.join(ROOT, "dropout.h"))
    return m.group(1)


class BuildPy(build_py):
    """Writes dropouth/_version.py with the header's version into the built package."""

    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "dropouth", "_version.py")
        with open(target, "w", encoding="utf-8") as f:
            f.write('# written by python/setup.py from dropout.h\n__version__ = "%s"\n' % header_version())


def find_nvcc():
    for cand in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if cand and os.path.exists(cand):
            return cand
    return None


class BuildExt(build_ext):
    """The CPU library as setuptools builds extensions; then the CUDA one, where nvcc works."""

    def run(self):
        super().run()
        if os.environ.get("DROPOUTH_NO_CUDA"):
            print("dropouth: CUDA library skipped (DROPOUTH_NO_CUDA is set)")
            return
        nvcc = find_nvcc()
        src = os.path.join(HERE, "dropouth_cuda_lib.cu")
        if not nvcc or not os.path.exists(src):
            print("dropouth: no nvcc found: the package is CPU-only")
            return
        out_dir = os.path.join(self.build_lib, "dropouth")
        os.makedirs(out_dir, exist_ok=True)
        out = os.path.join(out_dir, "_dropouth_cuda.so")
        # the GPU that is here (a binary for it, no JIT at first use), else nvcc's default target
        # with PTX; DROPOUTH_NVCC_FLAGS replaces this choice (e.g. "-arch=sm_90")
        arch = os.environ.get("DROPOUTH_NVCC_FLAGS")
        if arch is None:
            arch = "-arch=native" if shutil.which("nvidia-smi") and subprocess.call(
                ["nvidia-smi"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0 else ""
        cmd = [nvcc, "-O2", "-std=c++14"] + arch.split() + ["-shared", "-Xcompiler", "-fPIC", "-o", out, src]
        print("dropouth: " + " ".join(cmd))
        if subprocess.call(cmd) != 0:
            print("dropouth: nvcc failed (a host compiler g++ is needed): the package is CPU-only")


setup(
    name="dropouth",
    version=header_version(),
    description="dropout.h (counter-based Philox dropout, the same masks on every device) for NumPy and PyTorch",
    license="MIT OR Unlicense",
    packages=["dropouth"],
    python_requires=">=3.7",
    install_requires=[],           # numpy and torch are optional peers: Debian's python3-numpy, python3-torch
    ext_modules=[Extension("dropouth._dropouth_cpu", sources=["dropouth_lib.c"],
                           extra_compile_args=["-std=c99", "-O2", "-ffp-contract=off"])],
    cmdclass={"build_py": BuildPy, "build_ext": BuildExt},
    zip_safe=False,
)
