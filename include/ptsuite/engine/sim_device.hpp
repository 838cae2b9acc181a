// Contract: a simulated SSD in virtual time (docs/sim.md). SimDevice is a page-mapped flash
// translation layer (one mapping unit = unit_bytes) over channels x dies with over-provisioning,
// greedy garbage collection per die, a FIFO write buffer, per-die read / program / erase times
// and one host interface (command overhead + bandwidth). It holds no clock of its own: the
// caller hands it the virtual time at which each IO is submitted and it returns the virtual
// time at which the IO completes (every resource keeps a busy-until time, reserved in
// submission order, so submissions must come in non-decreasing time). TRIM unmaps, format()
// returns the drive to fresh-out-of-box (FOB). Latency noise comes from a seeded RNG, so the
// same model, seed and IO stream give the same completion times on any machine.
//
// Reads go ahead of queued programs and GC (waiting for at most one program in progress).
// Optional: read-modify-write of partial units (merge_ns: the old data read on its die, then a
// merge that holds the command path; docs/sim.md "The model").
// Optional: a read/write turnaround on the host interface (turnaround_ns: a command whose
// direction differs from the previous one's holds the interface that much longer; docs/sim.md).
// Optional: paced GC (gc_units_per_step: a few relocated units ahead of each host unit on a die
// whose GC is due, instead of a whole victim block at once, written into a GC block of the die
// apart from the host's open block; docs/sim.md "The model").
// Optional: a periodic background activity (a test model's drive that never settles). A host
// write never goes to a die that cannot take it (its full blocks all valid, its last free block
// kept for GC); the constructor refuses a geometry in which every die could end so (too little
// over-provisioning for the blocks a die has).
// What it does not model: read disturb, retention, channel bus contention, program suspend, SLC caching, power and
// thermal states, background GC while idle, compression. Throws UsageError (naming the model field) for parameters that
// cannot describe a drive.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptsuite::engine {

// One drive model: every field is data from pts/sim/<name>.json (pts/sim_model.hpp reads it).
struct SimModel {
  std::string name;
  uint64_t capacity_bytes = 0;      // user capacity (what the host sees)
  uint32_t unit_bytes = 4096;       // mapping unit; IOs are split into units
  double over_provisioning = 0.07;  // spare flash / user capacity
  uint32_t channels = 1;
  uint32_t dies_per_channel = 1;
  uint32_t block_units = 256;         // mapping units per erase block
  uint64_t read_ns = 60'000;          // one unit, on its die
  uint64_t program_ns = 100'000;      // one unit, on its die (effective: multi-plane / page amortised)
  uint64_t erase_ns = 3'000'000;      // one block
  double interface_mb_per_s = 550;    // decimal MB/s, both directions share it
  uint64_t command_ns = 3'000;        // per read command on the interface
  uint64_t write_command_ns = 3'000;  // per write command on the interface
  uint32_t write_buffer_units = 1024;
  // The write buffer is non-volatile (power-loss protection): writes are acknowledged from it
  // even with the write cache disabled. Without PLP the buffer is the volatile write cache.
  bool power_loss_protection = false;
  uint32_t gc_free_blocks = 2;  // per die: GC runs when fewer free blocks remain
  double noise_pct = 0;         // service times x (1 + u), u uniform in [-noise, +noise] %
  uint64_t seed = 1;
  // Optional mechanisms (0 = off, the default: a model that does not set them is unchanged).
  double background_period_s = 0;  // a periodic background activity: period of virtual time
  double background_load = 0;      // flash service times x (1 + load) in the first half of each period
  // Read-modify-write of a write that covers part of a mapped unit: the unit's old data is read
  // on its die (behind the die's queued work) and merged by the controller before the program;
  // the command path takes no further command until the merge is done (merge_ns after the read).
  uint64_t merge_ns = 0;  // 0 = off: partial units are programmed as if whole
  // Paced (incremental) GC: while a die's GC is due, each host unit programmed on it is preceded
  // by at most this many relocated valid units (then the host unit: GC interleaves with host IO);
  // a block still unfinished when the host's open block fills is finished at once. Relocated
  // units go to a GC block of the die, apart from the host's open block (as FTLs keep GC's
  // destination apart from host writes): a victim's surviving, cold units stay together instead
  // of being interleaved a few at a time with the host's hot ones (which roughly doubled the
  // write amplification of CBW's zoned pattern; docs/sim.md). 0 = off: a victim is relocated
  // whole into the open block, holding its die for up to block_units x (read + program) + erase.
  uint32_t gc_units_per_step = 0;
  // Read/write turnaround: a command whose direction (read / write) differs from the previous
  // command's on the interface first holds the interface for turnaround_ns. It sits on the
  // interface because that is the drive's one serial resource both directions pass: SATA is
  // half-duplex and the controller's command pipeline is shared, so switching it between data-in
  // and data-out is paid once per change, in the order commands pass the link, whatever the dies
  // do. Pure read, pure write and one-size write streams never change direction: they pay nothing.
  uint64_t turnaround_ns = 0;  // 0 = off
  // Not a model file's field: the time dilation dilated() applied (1 = the modelled drive's own
  // times). The simulated run needs it to count a segment's drain on the run's clock as the
  // modelled drive would take it (workload/sim_runner.hpp).
  double dilation = 1;
};

// Time dilation by `factor` (>= 1): every service time and the command overheads x factor, the
// interface bandwidth / factor and the capacity / factor (whole erase blocks per die kept). A
// workload of fixed durations then issues 1/factor of the IOs and writes the same fraction of
// the capacity, so the drive's course over a run (FOB, transition, steady state: the Round it
// settles in) stays that of the unscaled model while the simulation costs 1/factor of the CPU.
// docs/sim.md says what it does not keep (GC granularity: fewer blocks per die).
SimModel dilated(const SimModel& model, double factor);

// Counters for write amplification and the model's own tests.
struct SimCounters {
  uint64_t host_units_written = 0;
  uint64_t flash_units_written = 0;  // host + GC relocation
  uint64_t blocks_erased = 0;
  uint64_t units_trimmed = 0;
  uint64_t gc_finished_at_once = 0;  // paced GC only: victims finished at once (the open block filled first)
  [[nodiscard]] double write_amplification() const noexcept {
    return host_units_written == 0 ? 1.0
                                   : static_cast<double>(flash_units_written) / static_cast<double>(host_units_written);
  }
};

class SimDevice {
 public:
  explicit SimDevice(SimModel model);

  [[nodiscard]] const SimModel& model() const noexcept { return m_model; }
  [[nodiscard]] uint64_t capacity_bytes() const noexcept { return m_user_units * m_model.unit_bytes; }
  [[nodiscard]] const SimCounters& counters() const noexcept { return m_counters; }

  // One IO submitted at virtual time now_ns; returns its completion time (>= now_ns).
  // Precondition: offset + length inside the capacity, now_ns never decreasing across calls.
  uint64_t read(uint64_t offset_bytes, uint32_t length_bytes, uint64_t now_ns) noexcept;
  uint64_t write(uint64_t offset_bytes, uint32_t length_bytes, uint64_t now_ns) noexcept;
  // A hint: the IO at offset_bytes comes soon (loads its mapping entry into the cache).
  void prefetch(uint64_t offset_bytes) const noexcept { __builtin_prefetch(&m_l2p[offset_bytes >> m_unit_shift]); }
  // A hint: the IO at offset_bytes comes next and its mapping entry is cached (prefetch() some
  // IOs ago): loads what a write of it changes (its old physical unit's block count).
  void prefetch_mapping(uint64_t offset_bytes) const noexcept {
    const uint32_t phys = m_l2p[offset_bytes >> m_unit_shift];
    if (phys != UINT32_MAX) {
      __builtin_prefetch(&m_block_valid[block_of(phys)]);
    }
  }
  // Unmaps whole units inside the range (a partial unit at either end stays mapped).
  void trim(uint64_t offset_bytes, uint64_t length_bytes) noexcept;
  // Back to FOB: nothing mapped, every block erased, every resource idle from now_ns (the
  // write-cache setting is kept).
  void format(uint64_t now_ns) noexcept;
  // The host's write-cache setting (WCE / WCD; enabled when made). Disabled on a drive without
  // power-loss protection, a write completes only once its units are programmed; with PLP the
  // buffer keeps acknowledging writes (as enterprise drives with PLP do).
  void set_write_cache(bool enabled) noexcept {
    m_write_cache_enabled = enabled;
    m_write_through = !enabled && !m_model.power_loss_protection;
  }
  [[nodiscard]] bool write_cache_enabled() const noexcept { return m_write_cache_enabled; }

 private:
  struct Die {  // (its busy-until time is m_die_busy_ns[die]: pick_die() scans those, packed)
    uint32_t open_block = 0;
    uint32_t write_pointer = 0;  // next unit inside open_block
    std::vector<uint32_t> free_blocks;
    uint64_t gc_victim = UINT64_MAX;  // the block paced GC is emptying (UINT64_MAX: none)
    uint64_t gc_cursor = 0;           // its next physical unit to look at
    // Paced GC's destination, apart from the host's open block (UINT32_MAX: none yet).
    uint32_t gc_block = UINT32_MAX;
    uint32_t gc_write_pointer = 0;  // next unit inside gc_block
  };
  uint64_t program_unit(uint64_t lba_unit, uint64_t ready_ns) noexcept;
  uint64_t merge(uint64_t lba_unit, uint64_t received_ns) noexcept;  // read-modify-write of a partial unit
  uint64_t turnaround(uint8_t direction) noexcept;                   // the interface time of a direction change
  void invalidate(uint64_t lba_unit) noexcept;
  // Paced GC: room in the die's GC block, taking a free block when it is full; false: none free.
  // The test is inline (once per relocated unit); taking a block is not.
  bool gc_block_has_room(Die& die, uint32_t die_index) noexcept {
    return (die.gc_block != UINT32_MAX && die.gc_write_pointer < m_model.block_units) || open_gc_block(die, die_index);
  }
  bool open_gc_block(Die& die, uint32_t die_index) noexcept;  // the full (or first) GC block replaced
  // GC on the die: max_units UINT32_MAX runs it until gc_free_blocks are free; less is one paced step.
  uint64_t collect(Die& die, uint32_t die_index, uint32_t max_units) noexcept;
  uint64_t relocate(Die& die, uint32_t die_index, uint32_t& budget, bool paced) noexcept;
  void open_next_block(Die& die) noexcept;
  // Writes one unit at the write pointer of a block with room (the die's open block or its GC block).
  void place_at(uint64_t block, uint32_t& write_pointer, uint64_t lba_unit) noexcept;
  // Die time to read on die `die` a unit asked for at at_ns: ahead of its queued work, behind
  // the one program in progress (host reads and merges). Returns when the data is read.
  uint64_t read_unit(uint32_t die, uint64_t at_ns) noexcept;
  [[nodiscard]] uint64_t transfer_ns(uint32_t length_bytes) noexcept;  // on the interface
  uint64_t jitter(uint64_t ns) noexcept;
  [[nodiscard]] uint64_t background(uint64_t ns, uint64_t at_ns) const noexcept;
  [[nodiscard]] uint32_t pick_die() const noexcept;
  [[nodiscard]] uint64_t block_of(uint64_t phys) const noexcept {  // a shift, not a division, on the IO path
    return m_block_shift != 0 ? phys >> m_block_shift : phys / m_model.block_units;
  }
  // The GC victim index: per die and valid count, a bitset of the die's full blocks with that
  // count (plus a summary bit per non-zero word and a bit per non-empty count), so greedy GC
  // finds the lowest-numbered full block with the fewest valid units without a scan.
  void index_insert(uint64_t block) noexcept;
  void index_erase(uint64_t block) noexcept;
  [[nodiscard]] uint64_t index_least(uint32_t die_index) const noexcept;  // UINT64_MAX: no full block

  SimModel m_model;
  uint64_t m_user_units = 0;
  uint32_t m_dies = 0;
  uint32_t m_blocks_per_die = 0;
  std::vector<uint32_t> m_l2p;  // lba unit -> physical unit (UINT32_MAX: unmapped)
  // physical unit -> the LBA unit written there (UINT32_MAX: not written since format). Not
  // cleared when the LBA is written again or trimmed (a random store saved on every host write):
  // a unit is valid exactly when m_l2p of its LBA points back at it.
  std::vector<uint32_t> m_p2l;
  std::vector<uint32_t> m_block_valid;    // per global block
  std::vector<uint8_t> m_block_state;     // 0 free, 1 open, 2 full, 3 being collected
  std::vector<uint32_t> m_block_die;      // per global block: its die
  uint32_t m_unit_shift = 0;              // log2(unit_bytes)
  double m_noise_scale = 0;               // noise_pct / 100, once (jitter() ran the division per call)
  uint32_t m_block_shift = 0;             // log2(block_units) when a power of two, else 0 (divide)
  size_t m_index_words = 0;               // words of one (die, valid count) bitset
  size_t m_index_summary_words = 0;       // words of its summary
  size_t m_index_count_words = 0;         // words of a die's non-empty-count mask
  std::vector<uint64_t> m_index_bits;     // [die][valid][word]
  std::vector<uint64_t> m_index_summary;  // [die][valid][summary word]: bit w = word w non-zero
  std::vector<uint64_t> m_index_counts;   // [die][count word]: bit v = some full block has v valid
  std::vector<Die> m_die;
  std::vector<uint64_t> m_die_busy_ns;   // per die: busy until (reserved in submission order)
  uint32_t m_transfer_length_bytes = 0;  // transfer_ns()'s last length and its time (IOs repeat sizes)
  uint64_t m_transfer_ns = 0;
  std::vector<uint64_t> m_buffer;  // program-done times of the last write_buffer_units units
  size_t m_buffer_pos = 0;
  bool m_write_cache_enabled = true;
  bool m_write_through = false;  // write cache disabled without PLP: acknowledged when programmed
  uint32_t m_next_die = 0;
  uint64_t m_interface_busy_ns = 0;
  uint8_t m_last_direction = 0;  // of the interface's last command: 0 none (idle since format), 1 read, 2 write
  uint64_t m_rng = 0;
  uint64_t m_background_period_ns = 0;
  SimCounters m_counters;
};

}  // namespace ptsuite::engine
