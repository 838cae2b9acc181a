// Contract: measures, on the run's opened target and before the run plans, what the plan would
// otherwise assume (plan.hpp PlanAssumptions), so that the worst case is a bound on this host
// under its load and not on an idle CI machine's. Called by pts/run.cpp (start and resume)
// after the target is opened and identified; blocks for about a second; single-threaded apart
// from the probe's own IO threads. Units: ns, decimal MB/s.
//
//   step overhead   up to three shapes of the plan's segments (the lightest step at the fewest
//                   threads, the lightest at the most threads, the one with the most IO buffer
//                   bytes: threads x QD x largest block) are timed 3 times each as a 10 ms random
//                   read segment through what every step pays beyond its length (set-up of its
//                   threads, engines, buffers and data pool, the drain, the result's JSON and
//                   its journal hash), the slowest of the 3 kept; overhead = a + b x threads +
//                   c x buffer MiB, b and c solved through the three (never negative), a raised
//                   until no probe is above the model.
//   documents       the results document is written after every test: a ~1 MB document of the
//                   probe's own segment results is serialized 3 times, the slowest per byte.
//   health          a snapshot through `health` (the run's session), timed 3 times, the slowest.
//   write rates     only on ptsuite's own scratch target (it holds nothing): every distinct
//                   TC x QD x block size of the plan's byte-limited writes (WIPC) writes
//                   min(capacity / 8, 256 MiB) sequentially, bytes / wall time.
//   margin          every measured time x k_probe_margin (3) and every rate / k_probe_margin:
//                   the probe sees one moment's load; each further job of the run's weight on
//                   every core of the host takes another share of the CPU the run gets, so the
//                   bound holds while the load at most triples after the probe. x2 was measured
//                   too little: a quick IOPS run took 103 s against a worst case of 99 s when a
//                   -j2 compile started after its probe on the shared 2-core machine
//                   (docs/plan-and-eta.md). A time never falls below the unprobed assumption
//                   (40 ms per segment).
// Reads are harmless on any target (the gate already admitted it); nothing is written unless
// `may_write`. The figures and where they come from go into the assumptions' *_basis texts.
#pragma once

#include <functional>
#include <string>

#include <ptsuite/engine/target.hpp>
#include <ptsuite/pts/plan.hpp>

namespace ptsuite::pts {

inline constexpr double k_probe_margin = 3.0;

struct ProbeOptions {
  bool may_write = false;         // ptsuite's own scratch target only
  std::string engine = "libaio";  // the run's IO engine
  std::function<void()> health;   // one health snapshot of the run's session; empty: not timed
};

// `worst` is the plan made under `base` (its segments' thread counts, queue depths and
// byte-limited writes are what is probed); returns `base` with the measured figures.
PlanAssumptions probe_assumptions(const engine::Target& target, const Plan& worst, PlanAssumptions base,
                                  const ProbeOptions& options);

}  // namespace ptsuite::pts
