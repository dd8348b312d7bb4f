"""setup.py - builds the dropouth package: the Python code and its ctypes libraries.

    python3 -m pip install --no-build-isolation ./python      (see docs/PYTHON.md)

The CPU library is python/dropouth_lib.c over ../dropout.h, compiled by setuptools as an
extension file (it has no Python entry point: ctypes loads it). On x86-64 it is built three
times: for any x86-64 (SSE2), for AVX2 and for AVX-512; the package loads the best one the CPU
runs (dropouth._lib.cpu), so every user gets the fastest path without flags (the bits are the
same on every path: dropout.h's contract). The CUDA library (python/dropouth_cuda_lib.cu over
../dropout_cuda.cuh) is built where a GPU answers (nvidia-smi) and nvcc works, or where
DROPOUTH_CUDA=1 asks for it; DROPOUTH_NO_CUDA=1 skips it. (nvcc takes about a minute, eight
times the rest of the install: a machine without a GPU does not pay for it by default.)
dropouth.__version__ is DROPOUT_VERSION_STRING, read from ../dropout.h here, at build time.
"""
import os
import platform
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


def gpu_here():
    return bool(shutil.which("nvidia-smi")) and subprocess.call(
        ["nvidia-smi"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0


# The CPU library's builds: (module, extra flags, what the CPU must have: dropouth_cpu_level's
# number). -ffp-contract=off everywhere: no fused multiply-add where the contract says IEEE ops.
# -g0 after Python's own -g: debug information doubled the AVX-512 build's compile time (gcc
# 12: 28.5 s of CPU against 12.7) for a library whose calls are tested against their C
# twins; DROPOUTH_DEBUG=1 keeps it.
_BASE_FLAGS = ["-std=c99", "-O2", "-ffp-contract=off"] + ([] if os.environ.get("DROPOUTH_DEBUG") == "1" else ["-g0"])
_AVX2 = ["-mavx2", "-mfma", "-mf16c", "-mbmi", "-mbmi2"]
_AVX512 = _AVX2 + ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq"]


def cpu_extensions():
    exts = [Extension("dropouth._dropouth_cpu", sources=["dropouth_lib.c"], extra_compile_args=_BASE_FLAGS)]
    if platform.machine().lower() in ("x86_64", "amd64") and os.name != "nt" \
            and not os.environ.get("DROPOUTH_NO_ISA_VARIANTS"):
        for name, flags in (("avx2", _AVX2), ("avx512", _AVX512)):
            exts.append(Extension("dropouth._dropouth_cpu_" + name, sources=["dropouth_lib.c"],
                                  extra_compile_args=_BASE_FLAGS + flags))
    return exts


class BuildExt(build_ext):
    """The CPU library as setuptools builds extensions, its builds side by side (one compiler per
    core); then the CUDA one, where asked for."""

    def build_extensions(self):
        # each ISA build compiles its own one-line source (an #include of dropouth_lib.c), so that
        # the builds' object files do not share a path and can be compiled in parallel
        os.makedirs(self.build_temp, exist_ok=True)
        for ext in self.extensions:
            name = ext.name.rsplit(".", 1)[-1]
            if name != "_dropouth_cpu":
                wrapper = os.path.join(self.build_temp, name + ".c")
                with open(wrapper, "w", encoding="utf-8") as f:
                    f.write('#include "%s"\n' % os.path.join(HERE, "dropouth_lib.c").replace("\\", "/"))
                ext.sources = [wrapper]
        if self.parallel is None:
            self.parallel = min(len(self.extensions), os.cpu_count() or 1)
        super().build_extensions()

    def run(self):
        super().run()
        if os.environ.get("DROPOUTH_NO_CUDA"):
            print("dropouth: CUDA library skipped (DROPOUTH_NO_CUDA is set)")
            return
        if not os.environ.get("DROPOUTH_CUDA") and not gpu_here():
            print("dropouth: no GPU answers here (nvidia-smi): CUDA library skipped (DROPOUTH_CUDA=1 builds it)")
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
            arch = "-arch=native" if gpu_here() else ""
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
    ext_modules=cpu_extensions(),
    cmdclass={"build_py": BuildPy, "build_ext": BuildExt},
    zip_safe=False,
)
