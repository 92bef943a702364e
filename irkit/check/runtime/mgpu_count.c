/* A counting stand-in for MLIR's GPU runtime wrappers (mlir/lib/ExecutionEngine/*RuntimeWrappers.cpp).
 *
 * Every mgpu* entry point that MLIR 14 and 22's gpu-to-llvm lowering calls only counts its calls and
 * hands back a distinct fake handle; at exit the counts are written, one `name count` per line, to
 * the file named by MGPU_COUNT_OUT (stderr without it).  irkit-check and the tests run lowered host
 * code under mlir-runner with this library and compare the counts before and after a pass.
 * Built with the system C compiler: cc -shared -fPIC -o libmgpucount.so mgpu_count.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum {
  ModuleLoad, ModuleLoadJIT, ModuleUnload, ModuleGetFunction, LaunchKernel, StreamCreate, StreamSynchronize,
  StreamDestroy, StreamWaitEvent, EventCreate, EventDestroy, EventSynchronize, EventRecord, MemAlloc, MemFree,
  Memcpy, Memset32, SetDefaultDevice, NCOUNTS
};
static const char *names[NCOUNTS] = {
  "mgpuModuleLoad", "mgpuModuleLoadJIT", "mgpuModuleUnload", "mgpuModuleGetFunction", "mgpuLaunchKernel",
  "mgpuStreamCreate", "mgpuStreamSynchronize", "mgpuStreamDestroy", "mgpuStreamWaitEvent", "mgpuEventCreate",
  "mgpuEventDestroy", "mgpuEventSynchronize", "mgpuEventRecord", "mgpuMemAlloc", "mgpuMemFree", "mgpuMemcpy",
  "mgpuMemset32", "mgpuSetDefaultDevice"};
static long counts[NCOUNTS];
static uintptr_t next_handle = 0x1000;

static void *count(int which) {
  counts[which]++;
  next_handle += 16;
  return (void *)next_handle;
}

__attribute__((destructor)) static void report(void) {
  const char *path = getenv("MGPU_COUNT_OUT");
  FILE *out = path ? fopen(path, "w") : stderr;
  if (!out) return;
  for (int i = 0; i < NCOUNTS; i++)
    if (counts[i]) fprintf(out, "%s %ld\n", names[i], counts[i]);
  if (out != stderr) fclose(out);
}

/* Arguments are ignored: only the number of calls matters (signatures as in MLIR 22's wrappers). */
void *mgpuModuleLoad(void *data, size_t size) { (void)data; (void)size; return count(ModuleLoad); }
void *mgpuModuleLoadJIT(void *data, int opt) { (void)data; (void)opt; return count(ModuleLoadJIT); }
void mgpuModuleUnload(void *module) { (void)module; count(ModuleUnload); }
void *mgpuModuleGetFunction(void *module, const char *name) { (void)module; (void)name; return count(ModuleGetFunction); }
void mgpuLaunchKernel(void *f, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by, intptr_t bz,
                      int32_t smem, void *stream, void **params, void **extra, size_t nparams) {
  (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)smem; (void)stream; (void)params;
  (void)extra; (void)nparams;
  count(LaunchKernel);
}
void *mgpuStreamCreate(void) { return count(StreamCreate); }
void mgpuStreamSynchronize(void *s) { (void)s; count(StreamSynchronize); }
void mgpuStreamDestroy(void *s) { (void)s; count(StreamDestroy); }
void mgpuStreamWaitEvent(void *s, void *e) { (void)s; (void)e; count(StreamWaitEvent); }
void *mgpuEventCreate(void) { return count(EventCreate); }
void mgpuEventDestroy(void *e) { (void)e; count(EventDestroy); }
void mgpuEventSynchronize(void *e) { (void)e; count(EventSynchronize); }
void mgpuEventRecord(void *e, void *s) { (void)e; (void)s; count(EventRecord); }
void *mgpuMemAlloc(uint64_t size, void *s, int host_shared) { (void)size; (void)s; (void)host_shared; return count(MemAlloc); }
void mgpuMemFree(void *p, void *s) { (void)p; (void)s; count(MemFree); }
void mgpuMemcpy(void *d, void *src, size_t n, void *s) { (void)d; (void)src; (void)n; (void)s; count(Memcpy); }
void mgpuMemset32(void *d, int v, size_t n, void *s) { (void)d; (void)v; (void)n; (void)s; count(Memset32); }
void mgpuSetDefaultDevice(int32_t d) { (void)d; count(SetDefaultDevice); }
