// Contract: runs one resolved workload on a simulated drive (engine::SimDevice) in virtual
// time, with the same inputs and the same WorkloadResult as run_workload() (docs/sim.md).
//   * The clock is the simulated device's: a VirtualClock the caller owns and injects. The run
//     starts at clock.device_ns() and the device's timeline ends at its last completion;
//     durations, rate limits, interval boundaries, latency stamps and progress all read it,
//     never the host's clock.
//   * The drain (the IOs still in flight once no more are issued: after the deadline, or after
//     the last submission of a byte- or IO-limited run) runs on a dilated model (SimModel::
//     dilation = k) k times slower than on the modelled drive: at k = 1000 a 60-second segment
//     is 60 ms of the modelled drive's queue, and its QD IOs in flight drain as the dilated
//     drive serves them. The run's clock (clock.now_ns: what segment and Round lengths, time
//     limits, ETA and records read) advances by the time up to the drain's start plus the drain
//     / k, the modelled drive's; the device's timeline keeps the whole drain
//     (clock.device_ahead_ns grows by the rest), so every completion time, and so the model's
//     state, is that of one continuous timeline. elapsed_ns (the rates' denominator) keeps the
//     whole drain: IOPS x k is the modelled drive's. result.run_clock_ns is the run clock's advance.
//     The interval samples (spec.interval_ns) end on the run's clock: boundaries are closed up to
//     the deadline, the drain after it is one tail sample whose end counts the drain / k, as
//     the run's clock does (on the device's timeline a 40 s drain would add eight empty 5 s
//     intervals and stretch an IOPS-vs-time axis by 40 s).
//   * Threads x QD IOs are kept in flight as in run_workload(): each thread's IoGenerator (the
//     same offsets, sizes and directions as a real run of the same seed) issues its next IO at
//     the virtual time its previous one completed (or when its rate limit allows). No thread,
//     buffer or data is made: an IO is a call on the model.
//   * Limits (duration, bytes, IO count) are split per thread as run_workload() splits them;
//     elapsed_ns runs from the start to the last completion.
//   * control.stop_requested is read every 64 Ki IOs (interrupted); control.on_progress is
//     called at every control.progress_interval_ns of virtual time.
//   * cpu: the host CPU the simulation took (getrusage), which is not the drive's.
// Nothing is thrown once the run starts; resolve() has done every input check.
#pragma once

#include <cstdint>

#include <ptsuite/engine/sim_device.hpp>
#include <ptsuite/workload/workload_runner.hpp>

namespace ptsuite::workload {

// The simulated drive's clock, in ns since the simulated run began; owned by the one who owns
// the device and passed to everything that must read the time of a simulated run.
struct VirtualClock {
  uint64_t now_ns = 0;           // the run's clock (segment and step times, records, ETA)
  uint64_t device_ahead_ns = 0;  // how far the device's timeline runs ahead of it (the drains' excess)
  [[nodiscard]] uint64_t device_ns() const noexcept { return now_ns + device_ahead_ns; }
};

// resolve() for a simulated run: the same checks, and spec.engine "sim" (the engine registry has
// no "sim": nothing opens a target, so the name is not looked up).
ResolvedWorkload resolve_simulated(WorkloadSpec spec, const engine::TargetGeometry& geometry);

WorkloadResult run_simulated_workload(const ResolvedWorkload& workload, engine::SimDevice& device, VirtualClock& clock,
                                      const RunControl& control, WorkloadState* state = nullptr);

}  // namespace ptsuite::workload
