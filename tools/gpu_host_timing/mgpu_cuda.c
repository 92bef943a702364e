/* MLIR 22's mgpu* GPU runtime entry points over the CUDA driver API, for timing lowered host code on an
 * NVIDIA GPU without libmlir_cuda_runtime (Debian ships none).  libcuda.so.1 is opened with dlopen, so this
 * builds on a machine without CUDA.  Semantics follow mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp
 * (primary context, non-blocking streams, JIT load of PTX); each entry point also counts its calls,
 * and the timing harness (time_loop.c) prints the counts of its timed calls.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream;

static struct {
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           CUstream, void **, void **);
  CUresult (*StreamCreate)(CUstream *, unsigned);
  CUresult (*StreamSynchronize)(CUstream);
  CUresult (*StreamDestroy)(CUstream);
  CUresult (*GetErrorString)(CUresult, const char **);
} cu;

enum { ModuleLoad, ModuleLoadJIT, ModuleUnload, ModuleGetFunction, LaunchKernel, StreamCreate, StreamSynchronize,
       StreamDestroy, NCOUNTS };
static const char *names[NCOUNTS] = {"mgpuModuleLoad", "mgpuModuleLoadJIT", "mgpuModuleUnload",
  "mgpuModuleGetFunction", "mgpuLaunchKernel", "mgpuStreamCreate", "mgpuStreamSynchronize", "mgpuStreamDestroy"};
long mgpu_counts[NCOUNTS];

static void check(CUresult r, const char *what) {
  if (r == 0) return;
  const char *msg = "?";
  if (cu.GetErrorString) cu.GetErrorString(r, &msg);
  fprintf(stderr, "mgpu_cuda: %s failed: %d %s\n", what, r, msg);
  _exit(3); /* not exit: MLIR's module destructor would run on a half-made context */
}

static void *sym(void *lib, const char *name) {
  void *p = dlsym(lib, name);
  if (!p) { fprintf(stderr, "mgpu_cuda: %s missing in libcuda.so.1\n", name); _exit(3); }
  return p;
}

/* The primary context of device 0 made current once (MLIR's ScopedContext does this per call). */
static void ensure_context(void) {
  static int ready;
  if (ready) return;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!lib) { fprintf(stderr, "mgpu_cuda: cannot dlopen libcuda.so.1: %s\n", dlerror()); _exit(3); }
  *(void **)&cu.Init = sym(lib, "cuInit");
  *(void **)&cu.DeviceGet = sym(lib, "cuDeviceGet");
  *(void **)&cu.DevicePrimaryCtxRetain = sym(lib, "cuDevicePrimaryCtxRetain");
  *(void **)&cu.CtxSetCurrent = sym(lib, "cuCtxSetCurrent");
  *(void **)&cu.ModuleLoadDataEx = sym(lib, "cuModuleLoadDataEx");
  *(void **)&cu.ModuleLoadData = sym(lib, "cuModuleLoadData");
  *(void **)&cu.ModuleUnload = sym(lib, "cuModuleUnload");
  *(void **)&cu.ModuleGetFunction = sym(lib, "cuModuleGetFunction");
  *(void **)&cu.LaunchKernel = sym(lib, "cuLaunchKernel");
  *(void **)&cu.StreamCreate = sym(lib, "cuStreamCreate");
  *(void **)&cu.StreamSynchronize = sym(lib, "cuStreamSynchronize");
  *(void **)&cu.StreamDestroy = sym(lib, "cuStreamDestroy_v2");
  *(void **)&cu.GetErrorString = sym(lib, "cuGetErrorString");
  CUdevice dev;
  CUcontext ctx;
  check(cu.Init(0), "cuInit");
  check(cu.DeviceGet(&dev, 0), "cuDeviceGet");
  check(cu.DevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(cu.CtxSetCurrent(ctx), "cuCtxSetCurrent");
  ready = 1;
}

void *mgpuModuleLoad(void *data, size_t size) {
  (void)size;
  mgpu_counts[ModuleLoad]++;
  ensure_context();
  CUmodule m;
  check(cu.ModuleLoadData(&m, data), "cuModuleLoadData");
  return m;
}

void *mgpuModuleLoadJIT(void *data, int opt) {
  mgpu_counts[ModuleLoadJIT]++;
  ensure_context();
  CUmodule m;
  int keys[1] = {7 /* CU_JIT_OPTIMIZATION_LEVEL */};
  void *vals[1] = {(void *)(intptr_t)opt};
  check(cu.ModuleLoadDataEx(&m, data, 1, keys, vals), "cuModuleLoadDataEx");
  return m;
}

void mgpuModuleUnload(void *m) {
  mgpu_counts[ModuleUnload]++;
  /* MLIR unloads in a global destructor, after the driver may have shut down (CUDA_ERROR_DEINITIALIZED) */
  CUresult r = cu.ModuleUnload(m);
  if (r != 4) check(r, "cuModuleUnload");
}

void *mgpuModuleGetFunction(void *m, const char *name) {
  mgpu_counts[ModuleGetFunction]++;
  CUfunction f;
  check(cu.ModuleGetFunction(&f, m, name), "cuModuleGetFunction");
  return f;
}

void mgpuLaunchKernel(void *f, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by, intptr_t bz,
                      int32_t smem, void *stream, void **params, void **extra, size_t nparams) {
  (void)nparams;
  mgpu_counts[LaunchKernel]++;
  check(cu.LaunchKernel(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra), "cuLaunchKernel");
}

void *mgpuStreamCreate(void) {
  mgpu_counts[StreamCreate]++;
  ensure_context();
  CUstream s;
  check(cu.StreamCreate(&s, 1 /* CU_STREAM_NON_BLOCKING */), "cuStreamCreate");
  return s;
}

void mgpuStreamSynchronize(void *s) { mgpu_counts[StreamSynchronize]++; check(cu.StreamSynchronize(s), "cuStreamSynchronize"); }
void mgpuStreamDestroy(void *s) { mgpu_counts[StreamDestroy]++; check(cu.StreamDestroy(s), "cuStreamDestroy"); }

/* Counts so far, as a JSON object (the harness prints them). */
void mgpu_counts_json(FILE *out) {
  fprintf(out, "{");
  for (int i = 0, first = 1; i < NCOUNTS; i++)
    if (mgpu_counts[i]) { fprintf(out, "%s\"%s\": %ld", first ? "" : ", ", names[i], mgpu_counts[i]); first = 0; }
  fprintf(out, "}");
}
