/* dropouth_cuda_lib.cu - dropout_cuda.cuh as a shared library, for python/dropouth.py.
   `make python-cuda` builds it with nvcc. Every DROPOUT_CUDADEF launcher is exported
   (extern "C"); the CUDA runtime is linked statically, and a launcher runs on whatever
   stream the caller passes, such as PyTorch's current stream. */
#define DROPOUT_IMPLEMENTATION
#define DROPOUT_CUDA_IMPLEMENTATION
#include "../dropout_cuda.cuh"
