#include <ptsuite/engine/sim_device.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include <ptsuite/util/error.hpp>

namespace ptsuite::engine {

namespace {

constexpr uint32_t k_sim_unmapped = std::numeric_limits<uint32_t>::max();
constexpr uint8_t k_sim_free = 0;
constexpr uint8_t k_sim_open = 1;
constexpr uint8_t k_sim_full = 2;
constexpr uint8_t k_sim_collecting = 3;  // a GC victim while its valid units move
constexpr uint64_t k_sim_none = std::numeric_limits<uint64_t>::max();
constexpr uint32_t k_sim_no_block = std::numeric_limits<uint32_t>::max();  // a die's GC block, none yet
constexpr uint8_t k_sim_no_direction = 0;  // the interface's last command (turnaround_ns)
constexpr uint8_t k_sim_reading = 1;
constexpr uint8_t k_sim_writing = 2;

void require_model(bool ok, const char* field, const std::string& model, const std::string& why) {
  if (!ok) {
    throw UsageError(fmt::format("sim.{}", field), fmt::format("simulated drive model '{}': {} {}; correct "
                                                               "pts/sim/{}.json",
                                                               model, field, why, model));
  }
}

void check_model(const SimModel& m) {
  require_model(m.unit_bytes >= 512 && (m.unit_bytes & (m.unit_bytes - 1)) == 0, "unit_bytes", m.name,
                "must be a power of two of at least 512");
  require_model(m.capacity_bytes >= uint64_t{m.unit_bytes} * m.block_units * 4, "capacity_bytes", m.name,
                "must hold at least four erase blocks");
  require_model(m.over_provisioning > 0 && m.over_provisioning <= 4, "over_provisioning", m.name, "must be in (0, 4]");
  require_model(m.channels >= 1 && m.dies_per_channel >= 1, "channels", m.name, "and dies_per_channel must be >= 1");
  require_model(m.block_units >= 8, "block_units", m.name, "must be >= 8");
  require_model(m.program_ns > 0 && m.read_ns > 0, "program_ns", m.name, "and read_ns must be > 0");
  require_model(m.interface_mb_per_s > 0, "interface_mb_per_s", m.name, "must be > 0");
  require_model(m.write_buffer_units >= 1, "write_buffer_units", m.name, "must be >= 1");
  require_model(m.gc_free_blocks >= 2, "gc_free_blocks", m.name, "must be >= 2 (GC needs a block to write into)");
  require_model(m.noise_pct >= 0 && m.noise_pct < 100, "noise_pct", m.name, "must be in [0, 100)");
  require_model(m.dilation >= 1, "scale", m.name, "(time dilation) must be >= 1");
  require_model(m.background_period_s >= 0 && m.background_load >= 0 && m.background_load <= 100, "background_period_s",
                m.name, "must be >= 0 and background_load in [0, 100]");
  const double physical = static_cast<double>(m.capacity_bytes / m.unit_bytes) * (1 + m.over_provisioning);
  require_model(physical < 4.0e9, "capacity_bytes", m.name,
                "is too large to simulate (at most ~14 TiB of 4 KiB units)");
}

}  // namespace

SimModel dilated(const SimModel& model, double factor) {
  require_model(factor >= 1, "scale", model.name, "(time dilation) must be >= 1");
  SimModel m = model;
  auto times = [factor](uint64_t ns) { return static_cast<uint64_t>(std::llround(static_cast<double>(ns) * factor)); };
  m.read_ns = times(m.read_ns);
  m.program_ns = times(m.program_ns);
  m.erase_ns = times(m.erase_ns);
  m.command_ns = times(m.command_ns);
  m.write_command_ns = times(m.write_command_ns);
  m.merge_ns = times(m.merge_ns);
  m.turnaround_ns = times(m.turnaround_ns);
  m.interface_mb_per_s /= factor;
  m.dilation = model.dilation * factor;
  const uint64_t block_bytes = uint64_t{m.unit_bytes} * m.block_units * m.channels * m.dies_per_channel;
  const auto blocks =
      static_cast<uint64_t>(static_cast<double>(m.capacity_bytes) / factor / static_cast<double>(block_bytes));
  m.capacity_bytes = std::max<uint64_t>(blocks, 4) * block_bytes;
  return m;
}

SimDevice::SimDevice(SimModel model) : m_model(std::move(model)) {
  check_model(m_model);
  m_user_units = m_model.capacity_bytes / m_model.unit_bytes;
  m_dies = m_model.channels * m_model.dies_per_channel;
  const double physical_units = static_cast<double>(m_user_units) * (1 + m_model.over_provisioning);
  m_blocks_per_die = static_cast<uint32_t>(std::ceil(physical_units / m_dies / m_model.block_units));
  // Blocks a die never holds full: gc_free_blocks kept free, plus paced GC's own open block.
  const uint32_t reserved_blocks = m_model.gc_free_blocks + (m_model.gc_units_per_step != 0 ? 1 : 0);
  m_blocks_per_die = std::max(m_blocks_per_die, reserved_blocks + 2);
  // A die whose full blocks are all valid cannot take a host write (it keeps its last free block
  // for GC); if every die could end so, the drive deadlocks. It cannot when the user data is less
  // than what the dies hold with the reserved blocks kept free each.
  const uint64_t die_units = uint64_t{m_model.block_units} * (m_blocks_per_die - reserved_blocks);
  const double op_needed = static_cast<double>(uint64_t{m_dies} * m_model.block_units * (reserved_blocks + 1)) /
                           static_cast<double>(m_user_units);
  require_model(m_user_units < m_dies * die_units, "over_provisioning", m_model.name,
                fmt::format("{} is too small for {} dies of {} erase blocks of {} units: with gc_free_blocks {} kept "
                            "free on each, the user data can fill every die with valid data and GC can free no "
                            "block; raise over_provisioning to at least {:.3f}, or lower block_units or raise "
                            "capacity_bytes",
                            m_model.over_provisioning, m_dies, m_blocks_per_die, m_model.block_units,
                            m_model.gc_free_blocks, op_needed));
  m_background_period_ns = static_cast<uint64_t>(std::llround(m_model.background_period_s * 1e9));
  m_l2p.assign(m_user_units, k_sim_unmapped);
  m_p2l.assign(uint64_t{m_dies} * m_blocks_per_die * m_model.block_units, k_sim_unmapped);
  m_block_valid.assign(uint64_t{m_dies} * m_blocks_per_die, 0);
  m_block_state.assign(m_block_valid.size(), k_sim_free);
  m_block_die.resize(m_block_valid.size());
  for (uint64_t b = 0; b < m_block_die.size(); ++b) {
    m_block_die[b] = static_cast<uint32_t>(b / m_blocks_per_die);
  }
  m_unit_shift = static_cast<uint32_t>(std::countr_zero(m_model.unit_bytes));
  m_noise_scale = m_model.noise_pct / 100.0;
  m_block_shift =
      std::has_single_bit(m_model.block_units) ? static_cast<uint32_t>(std::countr_zero(m_model.block_units)) : 0;
  const uint64_t counts = uint64_t{m_model.block_units} + 1;
  m_index_words = (m_blocks_per_die + 63) / 64;
  m_index_summary_words = (m_index_words + 63) / 64;
  m_index_count_words = (counts + 63) / 64;
  m_index_bits.assign(m_dies * counts * m_index_words, 0);
  m_index_summary.assign(m_dies * counts * m_index_summary_words, 0);
  m_index_counts.assign(m_dies * m_index_count_words, 0);
  m_die.resize(m_dies);
  m_die_busy_ns.assign(m_dies, 0);
  m_buffer.assign(m_model.write_buffer_units, 0);
  format(0);
}

void SimDevice::format(uint64_t now_ns) noexcept {
  std::fill(m_l2p.begin(), m_l2p.end(), k_sim_unmapped);
  std::fill(m_p2l.begin(), m_p2l.end(), k_sim_unmapped);
  std::fill(m_block_valid.begin(), m_block_valid.end(), 0);
  std::fill(m_block_state.begin(), m_block_state.end(), k_sim_free);
  std::fill(m_index_bits.begin(), m_index_bits.end(), 0);
  std::fill(m_index_summary.begin(), m_index_summary.end(), 0);
  std::fill(m_index_counts.begin(), m_index_counts.end(), 0);
  std::fill(m_die_busy_ns.begin(), m_die_busy_ns.end(), now_ns);
  for (Die& die : m_die) {
    die.free_blocks.clear();
    for (uint32_t b = m_blocks_per_die; b-- > 1;) {
      die.free_blocks.push_back(b);  // popped lowest first
    }
    die.open_block = 0;
    die.write_pointer = 0;
    die.gc_victim = k_sim_none;
    die.gc_cursor = 0;
    die.gc_block = k_sim_no_block;
    die.gc_write_pointer = 0;
  }
  for (uint32_t d = 0; d < m_dies; ++d) {
    m_block_state[uint64_t{d} * m_blocks_per_die] = k_sim_open;
  }
  std::fill(m_buffer.begin(), m_buffer.end(), now_ns);
  m_buffer_pos = 0;
  m_next_die = 0;
  m_interface_busy_ns = now_ns;
  m_last_direction = k_sim_no_direction;
  m_rng = m_model.seed * 0x9e3779b97f4a7c15ULL + 1;
}

// The periodic background activity: service times x (1 + background_load) during the first
// half of each background_period_s of virtual time (off when the period is 0).
uint64_t SimDevice::background(uint64_t ns, uint64_t at_ns) const noexcept {
  if (m_background_period_ns == 0 || at_ns % m_background_period_ns >= m_background_period_ns / 2) {
    return ns;
  }
  return static_cast<uint64_t>(static_cast<double>(ns) * (1.0 + m_model.background_load));
}

// Inlined on the IO path (a relocated unit draws two). The conversions go through int64_t, one
// instruction each, where uint64_t's take a branch for values of 2^63 and more: the values are
// the same (rng >> 11 < 2^53, and a service time x (1 + noise) is far below 2^63 ns).
[[gnu::always_inline]] inline uint64_t SimDevice::jitter(uint64_t ns) noexcept {
  if (m_noise_scale == 0) {  // noise_pct 0 (check_model refuses a negative one)
    return ns;
  }
  m_rng ^= m_rng << 13;  // xorshift64
  m_rng ^= m_rng >> 7;
  m_rng ^= m_rng << 17;
  const double u = static_cast<double>(static_cast<int64_t>(m_rng >> 11)) * 0x1.0p-53 * 2.0 - 1.0;  // [-1, 1)
  const double scaled = static_cast<double>(static_cast<int64_t>(ns)) * (1.0 + m_noise_scale * u);
  return static_cast<uint64_t>(static_cast<int64_t>(scaled));
}

void SimDevice::index_insert(uint64_t block) noexcept {
  const uint64_t die = m_block_die[block];
  const uint64_t local = block - die * m_blocks_per_die;
  const uint64_t set = die * (uint64_t{m_model.block_units} + 1) + m_block_valid[block];
  const uint64_t word = local / 64;
  m_index_bits[set * m_index_words + word] |= uint64_t{1} << (local % 64);
  m_index_summary[set * m_index_summary_words + word / 64] |= uint64_t{1} << (word % 64);
  const uint32_t v = m_block_valid[block];
  m_index_counts[die * m_index_count_words + v / 64] |= uint64_t{1} << (v % 64);
}

void SimDevice::index_erase(uint64_t block) noexcept {
  const uint64_t die = m_block_die[block];
  const uint64_t local = block - die * m_blocks_per_die;
  const uint64_t set = die * (uint64_t{m_model.block_units} + 1) + m_block_valid[block];
  const uint64_t word = local / 64;
  uint64_t& bits = m_index_bits[set * m_index_words + word];
  bits &= ~(uint64_t{1} << (local % 64));
  if (bits != 0) {
    return;
  }
  uint64_t* summary = &m_index_summary[set * m_index_summary_words];
  summary[word / 64] &= ~(uint64_t{1} << (word % 64));
  for (size_t s = 0; s < m_index_summary_words; ++s) {
    if (summary[s] != 0) {
      return;
    }
  }
  const uint32_t v = m_block_valid[block];
  m_index_counts[die * m_index_count_words + v / 64] &= ~(uint64_t{1} << (v % 64));
}

// The lowest-numbered full block of the die among those with the fewest valid units (what a
// scan of the die's blocks in order with a strict "fewer" would pick).
uint64_t SimDevice::index_least(uint32_t die_index) const noexcept {
  const uint64_t* counts = &m_index_counts[uint64_t{die_index} * m_index_count_words];
  for (size_t c = 0; c < m_index_count_words; ++c) {
    if (counts[c] == 0) {
      continue;
    }
    const uint64_t v = c * 64 + static_cast<uint64_t>(std::countr_zero(counts[c]));
    const uint64_t set = uint64_t{die_index} * (uint64_t{m_model.block_units} + 1) + v;
    const uint64_t* summary = &m_index_summary[set * m_index_summary_words];
    for (size_t s = 0; s < m_index_summary_words; ++s) {
      if (summary[s] != 0) {
        const uint64_t word = s * 64 + static_cast<uint64_t>(std::countr_zero(summary[s]));
        const uint64_t bits = m_index_bits[set * m_index_words + word];
        return uint64_t{die_index} * m_blocks_per_die + word * 64 + static_cast<uint64_t>(std::countr_zero(bits));
      }
    }
  }
  return k_sim_none;
}

void SimDevice::invalidate(uint64_t lba_unit) noexcept {
  const uint32_t phys = m_l2p[lba_unit];
  if (phys == k_sim_unmapped) {
    return;
  }
  const uint64_t block = block_of(phys);
  if (m_block_state[block] == k_sim_full) {
    index_erase(block);
    --m_block_valid[block];
    index_insert(block);
  } else {
    --m_block_valid[block];
  }
  m_l2p[lba_unit] = k_sim_unmapped;
}

void SimDevice::open_next_block(Die& die) noexcept {
  const uint32_t d = static_cast<uint32_t>(&die - m_die.data());
  const uint64_t filled = uint64_t{d} * m_blocks_per_die + die.open_block;
  m_block_state[filled] = k_sim_full;
  index_insert(filled);
  die.open_block = die.free_blocks.back();
  die.free_blocks.pop_back();
  die.write_pointer = 0;
  m_block_state[uint64_t{d} * m_blocks_per_die + die.open_block] = k_sim_open;
}

void SimDevice::place_at(uint64_t block, uint32_t& write_pointer, uint64_t lba_unit) noexcept {
  const auto phys = static_cast<uint32_t>(block * m_model.block_units + write_pointer);
  m_p2l[phys] = static_cast<uint32_t>(lba_unit);
  m_l2p[lba_unit] = phys;
  ++m_block_valid[block];
  ++write_pointer;
}

// Paced GC writes into the die's GC block. A full one joins the victim index and a free block
// takes its place; none is free only if GC fell behind the host (the caller then stops: the
// host path finishes the victim once a block is free). Why one is always free when needed:
// the host opens a block only with gc_free_blocks (>= 2) free, so at least one stays, and
// between two fills of the GC block (block_units units moved) the victim being moved at the
// first fill, which had fewer than block_units valid units, was erased: a block back each time.
bool SimDevice::open_gc_block(Die& die, uint32_t die_index) noexcept {
  if (die.free_blocks.empty()) {
    return false;
  }
  const uint64_t first = uint64_t{die_index} * m_blocks_per_die;
  if (die.gc_block != k_sim_no_block) {
    m_block_state[first + die.gc_block] = k_sim_full;
    index_insert(first + die.gc_block);
  }
  die.gc_block = die.free_blocks.back();
  die.free_blocks.pop_back();
  die.gc_write_pointer = 0;
  m_block_state[first + die.gc_block] = k_sim_open;
  return true;
}

// Moves the valid units of the die's GC victim, from its cursor, at most budget of them: paced
// GC into the die's GC block; whole-block GC into the open block, taking a free block when it
// fills. (A paced step never takes a free block for the host's open block: the last ones are
// GC's.) Returns the die time it took.
uint64_t SimDevice::relocate(Die& die, uint32_t die_index, uint32_t& budget, bool paced) noexcept {
  uint64_t busy_ns = 0;
  const uint32_t bu = m_model.block_units;
  const bool apart = m_model.gc_units_per_step != 0;
  const uint64_t first = uint64_t{die_index} * m_blocks_per_die;
  const uint64_t victim = die.gc_victim;
  const uint64_t victim_end = (victim + 1) * bu;
  // The victim is being collected (not in the victim index): its count is kept here while its
  // units move (nothing else writes it meanwhile) and stored once at the end.
  uint32_t victim_valid = m_block_valid[victim];
  uint64_t p = die.gc_cursor;
  for (; p < victim_end && victim_valid > 0 && budget > 0; ++p) {
    const uint32_t ahead = p + 32 < victim_end ? m_p2l[p + 32] : k_sim_unmapped;  // 8 was too close
    if (ahead != k_sim_unmapped) {
      __builtin_prefetch(&m_l2p[ahead]);
    }
    const uint32_t lba = m_p2l[p];
    if (lba == k_sim_unmapped || m_l2p[lba] != p) {
      continue;  // never written, or its LBA was written again (or trimmed) since: stale
    }
    if (apart) {
      if (!gc_block_has_room(die, die_index)) {
        break;
      }
    } else if (die.write_pointer == bu) {
      if (paced) {
        break;
      }
      open_next_block(die);
    }
    --victim_valid;
    if (apart) {
      place_at(first + die.gc_block, die.gc_write_pointer, lba);
    } else {
      place_at(first + die.open_block, die.write_pointer, lba);
    }
    busy_ns += jitter(m_model.read_ns) + jitter(m_model.program_ns);
    ++m_counters.flash_units_written;
    --budget;
  }
  m_block_valid[victim] = victim_valid;
  die.gc_cursor = p;
  return busy_ns;
}

// Greedy GC: while the die has fewer than gc_free_blocks free blocks (or a victim is still being
// emptied), relocates the valid units of its full block with the fewest valid units into the
// open block and erases it. Unpaced (max_units UINT32_MAX) it is called when the open block is
// full and returns with the victims finished; a paced step moves at most max_units units.
// Returns the die time it took.
uint64_t SimDevice::collect(Die& die, uint32_t die_index, uint32_t max_units) noexcept {
  uint64_t busy_ns = 0;
  const uint32_t bu = m_model.block_units;
  const uint64_t first = uint64_t{die_index} * m_blocks_per_die;
  const bool paced = max_units != UINT32_MAX;
  uint32_t budget = max_units;
  if (!paced && die.gc_victim != k_sim_none) {
    ++m_counters.gc_finished_at_once;
  }
  while (budget > 0 && (die.gc_victim != k_sim_none || die.free_blocks.size() < m_model.gc_free_blocks)) {
    if (die.gc_victim == k_sim_none) {
      const uint64_t victim = index_least(die_index);
      if (victim == k_sim_none || m_block_valid[victim] >= bu) {
        break;  // nothing to gain (every block full of valid data)
      }
      index_erase(victim);
      m_block_state[victim] = k_sim_collecting;
      die.gc_victim = victim;
      die.gc_cursor = victim * bu;
    }
    busy_ns += relocate(die, die_index, budget, paced);
    const uint64_t victim = die.gc_victim;
    if (m_block_valid[victim] > 0) {
      break;  // a paced step's budget spent or its open block full
    }
    m_block_state[victim] = k_sim_free;
    die.free_blocks.push_back(static_cast<uint32_t>(victim - first));
    die.gc_victim = k_sim_none;
    busy_ns += m_model.erase_ns;
    ++m_counters.blocks_erased;
  }
  return busy_ns;
}

// Dynamic striping: the die that is free first (round-robin among equals), so a die busy with
// GC does not hold the host's writes while the others idle.
// The striping order from m_next_die is scanned as two runs (m_next_die + 1 .. the last die, then
// die 0 .. m_next_die - 1) over the packed busy times: no wrap-around per die, each die a load,
// a compare and two conditional moves; a strict "earlier" keeps the first in that order among equals.
uint32_t SimDevice::pick_die() const noexcept {
  const uint64_t* busy_ns = m_die_busy_ns.data();
  uint32_t d = m_next_die;
  uint64_t d_busy_ns = busy_ns[d];  // kept, not reloaded through d: no chain of loads
  auto earliest = [&](uint32_t from, uint32_t to) {
    for (uint32_t c = from; c < to; ++c) {
      const uint64_t c_busy_ns = busy_ns[c];
      d = c_busy_ns < d_busy_ns ? c : d;
      d_busy_ns = c_busy_ns < d_busy_ns ? c_busy_ns : d_busy_ns;
    }
  };
  earliest(m_next_die + 1, m_dies);
  earliest(0, m_next_die);
  return d;
}

uint64_t SimDevice::program_unit(uint64_t lba_unit, uint64_t ready_ns) noexcept {
  const uint32_t bu = m_model.block_units;
  uint32_t d = pick_die();
  uint64_t gc_ns = 0;
  // Paced GC: a step of relocation ahead of this host unit while the die's GC is due.
  if (m_model.gc_units_per_step != 0 && m_die[d].write_pointer < bu &&
      (m_die[d].gc_victim != k_sim_none || m_die[d].free_blocks.size() < m_model.gc_free_blocks)) {
    gc_ns = collect(m_die[d], d, m_model.gc_units_per_step);
  }
  if (m_die[d].write_pointer == bu) {
    gc_ns += collect(m_die[d], d, UINT32_MAX);
    // A die whose full blocks are all valid keeps its last free blocks for GC: the unit goes to
    // the next die (in striping order) that can take it. The constructor's geometry check
    // guarantees there is one.
    for (uint32_t i = 1;
         i < m_dies && m_die[d].write_pointer == bu && m_die[d].free_blocks.size() < m_model.gc_free_blocks; ++i) {
      const uint32_t c = d + i < m_dies ? d + i : d + i - m_dies;
      const uint64_t c_gc_ns = m_die[c].write_pointer == bu ? collect(m_die[c], c, UINT32_MAX) : 0;
      if (m_die[c].write_pointer < bu || m_die[c].free_blocks.size() >= m_model.gc_free_blocks) {
        m_die_busy_ns[d] = std::max(ready_ns, m_die_busy_ns[d]) + gc_ns;  // the die skipped
        d = c;
        gc_ns = c_gc_ns;
        break;
      }
      m_die_busy_ns[c] = std::max(ready_ns, m_die_busy_ns[c]) + c_gc_ns;
    }
    if (m_die[d].write_pointer == bu) {
      open_next_block(m_die[d]);
    }
  }
  m_next_die = d + 1 == m_dies ? 0 : d + 1;
  Die& die = m_die[d];
  invalidate(lba_unit);
  place_at(uint64_t{d} * m_blocks_per_die + die.open_block, die.write_pointer, lba_unit);
  ++m_counters.host_units_written;
  ++m_counters.flash_units_written;
  const uint64_t start = std::max(ready_ns, m_die_busy_ns[d]);
  const uint64_t service_ns = gc_ns + jitter(m_model.program_ns);
  m_die_busy_ns[d] = start + background(service_ns, start);
  return m_die_busy_ns[d];
}

// The interface's read/write turnaround (SimModel::turnaround_ns): paid by a command whose
// direction differs from the previous command's; the first command after format() pays none.
uint64_t SimDevice::turnaround(uint8_t direction) noexcept {
  const bool changes = m_last_direction != direction && m_last_direction != k_sim_no_direction;
  m_last_direction = direction;
  return changes ? m_model.turnaround_ns : 0;
}

// Reads go ahead of queued programs and GC: they wait for at most the one program in progress
// (program suspend is not modelled), and push the queued work back by their time.
uint64_t SimDevice::read_unit(uint32_t die, uint64_t at_ns) noexcept {
  const uint64_t read_ns = background(jitter(m_model.read_ns), at_ns);
  uint64_t& busy_ns = m_die_busy_ns[die];
  const uint64_t wait_ns = busy_ns > at_ns ? std::min(busy_ns - at_ns, m_model.program_ns) : 0;
  busy_ns = std::max(at_ns, busy_ns) + read_ns;
  return at_ns + wait_ns + read_ns;
}

// length x 1000 / MB/s, computed again only when the length changes (the same expression as
// before, so the same nanoseconds).
uint64_t SimDevice::transfer_ns(uint32_t length_bytes) noexcept {
  if (length_bytes != m_transfer_length_bytes) {
    m_transfer_length_bytes = length_bytes;
    m_transfer_ns = static_cast<uint64_t>(static_cast<double>(length_bytes) * 1000.0 / m_model.interface_mb_per_s);
  }
  return m_transfer_ns;
}

uint64_t SimDevice::read(uint64_t offset_bytes, uint32_t length_bytes, uint64_t now_ns) noexcept {
  const uint64_t first = offset_bytes >> m_unit_shift;
  const uint64_t last = (offset_bytes + length_bytes - 1) >> m_unit_shift;
  uint64_t ready = now_ns;
  for (uint64_t u = first; u <= last; ++u) {
    const uint32_t phys = m_l2p[u];
    if (phys == k_sim_unmapped) {
      continue;  // unmapped: the controller returns zeros without a flash read
    }
    ready = std::max(ready, read_unit(m_block_die[block_of(phys)], now_ns));
  }
  m_interface_busy_ns =
      std::max(ready, m_interface_busy_ns) + turnaround(k_sim_reading) + m_model.command_ns + transfer_ns(length_bytes);
  return m_interface_busy_ns;
}

// Read-modify-write of a partial unit: its old data (if mapped) is read on its die as a host
// read is (ahead of queued programs, after the one in progress), then merged; the command path
// is held until the merge is done, so the next command waits for it. Returns when the merged
// unit can be programmed.
uint64_t SimDevice::merge(uint64_t lba_unit, uint64_t received_ns) noexcept {
  const uint32_t phys = m_l2p[lba_unit];
  const uint64_t read_done = phys != k_sim_unmapped ? read_unit(m_block_die[block_of(phys)], received_ns) : received_ns;
  const uint64_t merged = read_done + m_model.merge_ns;
  m_interface_busy_ns = std::max(m_interface_busy_ns, merged);
  return merged;
}

uint64_t SimDevice::write(uint64_t offset_bytes, uint32_t length_bytes, uint64_t now_ns) noexcept {
  m_interface_busy_ns = std::max(now_ns, m_interface_busy_ns) + turnaround(k_sim_writing) + m_model.write_command_ns +
                        transfer_ns(length_bytes);
  const uint64_t received = m_interface_busy_ns;
  uint64_t done = received;
  const uint64_t first = offset_bytes >> m_unit_shift;
  const uint64_t last = (offset_bytes + length_bytes - 1) >> m_unit_shift;
  const uint64_t end_bytes = offset_bytes + length_bytes;
  for (uint64_t u = first; u <= last; ++u) {
    const bool partial = (u == first && (offset_bytes & (m_model.unit_bytes - 1)) != 0) ||
                         (u == last && (end_bytes & (m_model.unit_bytes - 1)) != 0);
    const uint64_t ready = partial && m_model.merge_ns != 0 ? merge(u, received) : received;
    // FIFO write buffer: this unit takes the place of the one written write_buffer_units ago,
    // so it is acknowledged only once that one is programmed.
    uint64_t& slot = m_buffer[m_buffer_pos];
    m_buffer_pos = m_buffer_pos + 1 == m_buffer.size() ? 0 : m_buffer_pos + 1;
    done = std::max(done, std::max(slot, ready));
    slot = program_unit(u, ready);
    if (m_write_through) done = std::max(done, slot);
  }
  return done;
}

void SimDevice::trim(uint64_t offset_bytes, uint64_t length_bytes) noexcept {
  const uint64_t unit = m_model.unit_bytes;
  const uint64_t first = (offset_bytes + unit - 1) / unit;
  const uint64_t end = std::min<uint64_t>((offset_bytes + length_bytes) / unit, m_user_units);
  for (uint64_t u = first; u < end; ++u) {
    if (m_l2p[u] != k_sim_unmapped) {
      invalidate(u);
      ++m_counters.units_trimmed;
    }
  }
}

}  // namespace ptsuite::engine
