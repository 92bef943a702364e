/* Times `loop()` (the lowered host function holding the seed's scf.for of gpu.launch_func) in-process:
 * once to warm up (the module is already loaded by MLIR's global constructor), then REPS timed calls;
 * prints one JSON line: the variant, launches per call, µs per call of each rep, and the mgpu* call counts
 * of the timed calls alone.  Usage: time_loop VARIANT LAUNCHES_PER_CALL REPS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void loop(void);
extern long mgpu_counts[];
void mgpu_counts_json(FILE *out);

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: %s VARIANT LAUNCHES REPS\n", argv[0]); return 2; }
  int reps = atoi(argv[3]);
  loop();
  memset(mgpu_counts, 0, 8 * sizeof(long));
  printf("{\"variant\": \"%s\", \"launches_per_call\": %s, \"us_per_call\": [", argv[1], argv[2]);
  for (int r = 0; r < reps; r++) {
    double t0 = now_us();
    loop();
    double t1 = now_us();
    printf("%s%.1f", r ? ", " : "", t1 - t0);
  }
  printf("], \"counts_timed_calls\": ");
  mgpu_counts_json(stdout);
  printf("}\n");
  fflush(stdout);
  return 0;
}
