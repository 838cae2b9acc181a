/*
 * bare_libaio: the engine ceiling for bench/run.sh.
 *
 * The least a libaio benchmark has to do: io_setup(QD); keep QD IOs in flight on an O_DIRECT
 * descriptor with io_submit / io_getevents(min 1); resubmit everything reaped in one
 * io_submit call. Same access pattern as `ptsuite workload` and fio in the benchmark: uniform
 * random block-aligned offsets over the whole target without a random map (xoshiro256** +
 * multiply-shift), or sequential with wrap-around; one aligned buffer per slot; write buffers
 * filled with random bytes once (no per-IO data work).
 *
 * Timing is ptsuite's model (docs/engine.md): one CLOCK_MONOTONIC stamp before each
 * io_submit, one after each io_getevents, latency = difference, kept as count/sum/max only
 * (no histogram). `--no-lat` drops the stamps (then only the deadline check reads the clock,
 * once per 64 reaps) for the absolute ceiling.
 *
 * CPU: getrusage(RUSAGE_SELF) over the measured window only (after --warmup seconds).
 * Output: one JSON object on stdout.
 *
 *   bare_libaio --target PATH --rw randread|randwrite|read|write --bs BYTES --qd N
 *               [--warmup S] [--runtime S] [--seed N] [--no-lat] [--ios N] [--complete-min N]
 *               [--submit-max N]
 *
 * --complete-min N waits for at least N completions per io_getevents (default 1, as ptsuite
 * and fio's default; fio's iodepth_batch_complete_min): an experiment in batching.
 * --submit-max N submits at most N IOs per io_submit call (default: all reaped slots in one
 * call, as ptsuite; 1 = fio's default of one IO per call): the other batching experiment.
 * --ios N ends the measured window after N IOs instead of --runtime seconds (for
 * instruction counting under valgrind: same work for every tool).
 *
 * Build: gcc -O2 -o bare_libaio bare_libaio.c -laio   (bench/run.sh does this)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double cpu_s(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void usage_and_exit(const char* why) {
  fprintf(stderr,
          "bare_libaio: %s\nusage: bare_libaio --target PATH --rw randread|randwrite|read|write "
          "--bs BYTES --qd N [--warmup S] [--runtime S] [--seed N] [--no-lat] [--ios N] [--complete-min N] "
          "[--submit-max N]\n",
          why);
  exit(2);
}

/* xoshiro256** seeded by splitmix64 */
static uint64_t rng_s[4];
static uint64_t splitmix(uint64_t* x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t rng_next(void) {
  const uint64_t result = rotl(rng_s[1] * 5, 7) * 9;
  const uint64_t t = rng_s[1] << 17;
  rng_s[2] ^= rng_s[0];
  rng_s[3] ^= rng_s[1];
  rng_s[1] ^= rng_s[2];
  rng_s[0] ^= rng_s[3];
  rng_s[2] ^= t;
  rng_s[3] = rotl(rng_s[3], 45);
  return result;
}
static inline uint64_t rng_bounded(uint64_t n) { /* multiply-shift; bias < n / 2^64 */
  return (uint64_t)(((unsigned __int128)rng_next() * n) >> 64);
}

int main(int argc, char** argv) {
  const char* target = NULL;
  const char* rw = "randread";
  uint64_t bs = 4096, seed = 1;
  unsigned qd = 1;
  double warmup = 2, runtime = 10;
  int no_lat = 0;
  uint64_t ios_limit = 0;
  unsigned complete_min = 1;
  unsigned submit_max = 0; /* 0 = everything reaped in one io_submit */
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--no-lat")) {
      no_lat = 1;
      continue;
    }
    if (!v) usage_and_exit("missing value");
    if (!strcmp(a, "--target"))
      target = v;
    else if (!strcmp(a, "--rw"))
      rw = v;
    else if (!strcmp(a, "--bs"))
      bs = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--qd"))
      qd = (unsigned)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--warmup"))
      warmup = strtod(v, NULL);
    else if (!strcmp(a, "--runtime"))
      runtime = strtod(v, NULL);
    else if (!strcmp(a, "--seed"))
      seed = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--ios"))
      ios_limit = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--complete-min"))
      complete_min = (unsigned)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--submit-max"))
      submit_max = (unsigned)strtoul(v, NULL, 10);
    else
      usage_and_exit("unknown option");
    ++i;
  }
  if (!target || bs == 0 || bs % 512 || qd == 0 || runtime <= 0 || complete_min == 0) usage_and_exit("bad arguments");
  const int writes = !strcmp(rw, "randwrite") || !strcmp(rw, "write");
  const int random = !strcmp(rw, "randread") || !strcmp(rw, "randwrite");
  if (!random && strcmp(rw, "read") && !writes) usage_and_exit("bad --rw");

  const int fd = open(target, (writes ? O_RDWR : O_RDONLY) | O_DIRECT);
  if (fd < 0) {
    perror(target);
    return 1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    perror("fstat");
    return 1;
  }
  uint64_t size = (uint64_t)st.st_size;
  if (S_ISBLK(st.st_mode) && ioctl(fd, BLKGETSIZE64, &size) != 0) {
    perror("BLKGETSIZE64");
    return 1;
  }
  const uint64_t blocks = size / bs;
  if (blocks == 0) usage_and_exit("target smaller than one block");

  uint64_t sm = seed;
  for (int i = 0; i < 4; ++i) rng_s[i] = splitmix(&sm);

  const size_t stride = (bs + 4095) & ~(size_t)4095;
  unsigned char* arena =
      mmap(NULL, stride * qd, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (arena == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  if (writes) {
    for (size_t i = 0; i < stride * qd / 8; ++i) ((uint64_t*)arena)[i] = rng_next();
  }

  io_context_t ctx = 0;
  int rc = io_setup((int)qd, &ctx);
  if (rc != 0) {
    fprintf(stderr, "io_setup: %s\n", strerror(-rc));
    return 1;
  }
  struct iocb* cbs = calloc(qd, sizeof(struct iocb));
  struct iocb** batch = calloc(qd, sizeof(struct iocb*));
  struct io_event* events = calloc(qd, sizeof(struct io_event));
  uint64_t* submit_ns = calloc(qd, sizeof(uint64_t));
  unsigned* free_slots = calloc(qd, sizeof(unsigned));
  for (unsigned i = 0; i < qd; ++i) free_slots[i] = qd - 1 - i;
  unsigned nfree = qd, in_flight = 0;
  uint64_t seq_block = 0;

  const uint64_t t0 = now_ns();
  const uint64_t measure_start = t0 + (uint64_t)(warmup * 1e9);
  const uint64_t deadline = measure_start + (uint64_t)(runtime * 1e9);
  int measuring = warmup <= 0;
  double cpu0 = measuring ? cpu_s() : 0;
  uint64_t m0 = measuring ? t0 : 0;
  uint64_t ios = 0, lat_sum = 0, lat_max = 0, errors = 0, iter = 0, now = t0;

  for (;;) {
    /* Stage every free slot and submit them in one call. */
    unsigned n = 0;
    while (nfree > 0) {
      const unsigned slot = free_slots[--nfree];
      struct iocb* cb = &cbs[slot];
      const uint64_t block = random ? rng_bounded(blocks) : (seq_block++ % blocks);
      if (writes)
        io_prep_pwrite(cb, fd, arena + (size_t)slot * stride, bs, (long long)(block * bs));
      else
        io_prep_pread(cb, fd, arena + (size_t)slot * stride, bs, (long long)(block * bs));
      cb->data = (void*)(uintptr_t)slot;
      batch[n++] = cb;
    }
    unsigned done = 0;
    while (done < n) {
      const uint64_t ts = no_lat ? 0 : now_ns();
      const unsigned chunk = submit_max != 0 && n - done > submit_max ? submit_max : n - done;
      rc = io_submit(ctx, (long)chunk, batch + done);
      if (rc == -EINTR || rc == -EAGAIN) continue;
      if (rc < 0) {
        fprintf(stderr, "io_submit: %s\n", strerror(-rc));
        return 1;
      }
      for (int i = 0; i < rc; ++i) submit_ns[(uintptr_t)batch[done + i]->data] = ts;
      done += (unsigned)rc;
      in_flight += (unsigned)rc;
    }
    rc = io_getevents(ctx, complete_min < in_flight ? complete_min : in_flight, in_flight, events, NULL);
    if (rc == -EINTR) continue;
    if (rc < 0) {
      fprintf(stderr, "io_getevents: %s\n", strerror(-rc));
      return 1;
    }
    if (!no_lat || (++iter & 63) == 0) now = now_ns();
    for (int i = 0; i < rc; ++i) {
      const unsigned slot = (unsigned)(uintptr_t)events[i].data;
      if ((long)events[i].res != (long)bs) ++errors;
      if (measuring) {
        ++ios;
        if (!no_lat) {
          const uint64_t l = now - submit_ns[slot];
          lat_sum += l;
          if (l > lat_max) lat_max = l;
        }
      }
      free_slots[nfree++] = slot;
    }
    in_flight -= (unsigned)rc;
    if (!measuring && now >= measure_start) {
      measuring = 1;
      cpu0 = cpu_s();
      m0 = now;
    } else if (measuring && (ios_limit ? ios >= ios_limit : now >= deadline)) {
      break;
    }
  }
  const double cpu1 = cpu_s();
  const double elapsed = (double)(now - m0) / 1e9;
  /* drain: not measured */
  while (in_flight > 0) {
    rc = io_getevents(ctx, in_flight, in_flight, events, NULL);
    if (rc > 0) in_flight -= (unsigned)rc;
  }
  io_destroy(ctx);
  printf(
      "{\"tool\":\"bare_libaio\",\"rw\":\"%s\",\"bs\":%llu,\"qd\":%u,\"timing\":%s,\"ios\":%llu,"
      "\"errors\":%llu,\"elapsed_s\":%.6f,\"iops\":%.1f,\"cpu_s\":%.6f,\"cpu_us_per_io\":%.4f,"
      "\"lat_mean_ns\":%.1f,\"lat_max_ns\":%llu,\"complete_min\":%u}\n",
      rw, (unsigned long long)bs, qd, no_lat ? "false" : "true", (unsigned long long)ios, (unsigned long long)errors,
      elapsed, ios / elapsed, cpu1 - cpu0, ios ? (cpu1 - cpu0) * 1e6 / ios : 0.0,
      (!no_lat && ios) ? (double)lat_sum / ios : 0.0, (unsigned long long)lat_max, complete_min);
  return errors ? 4 : 0;
}
