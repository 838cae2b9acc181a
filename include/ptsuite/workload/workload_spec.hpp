// Contract: what one workload is, as plain data (WorkloadSpec), and its validated form bound to
// a target's geometry (ResolvedWorkload). resolve() performs every input check and throws
// UsageError naming the field at fault ("block_size", "read_pct", "threads", "queue_depth",
// "range", "zones", "bytes", "rate_iops", ...; `ptsuite workload` maps them to its flags), so
// that nothing is written when the input is bad. The PTS runner builds WorkloadSpecs from pts/ data and goes
// through the same checks.
//
// Units: sizes and offsets in bytes, durations in ns, percentages 0..100, MB/s decimal (10^6).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/engine/target.hpp>

namespace ptsuite::workload {

enum class AccessPattern { sequential, random };

// random:  incompressible; each write is copied from a seeded per-thread random pool at a
//          random offset and every 512-byte sector gets a unique 16-byte tag (defeats dedup).
// refill:  every byte of every write freshly generated from the PRNG (slower, strictest).
// zeros:   all-zero data; an operator's option the report must disclose (not PTS-compliant).
enum class DataPattern { random, refill, zeros };

struct BlockSizeWeight {
  uint64_t bytes = 4096;
  double weight = 1.0;  // relative; normalised by resolve()
};

// Zoned access (CBW/ECW): io_pct of the IOs go to the next range_pct of the active range.
// Zones are consecutive from the start of the range; both columns must sum to 100.
struct AccessZone {
  double io_pct = 0;
  double range_pct = 0;
};

// The PTS-C "ActiveRange Amount" and "ActiveRange Segments" (random pattern only): random IOs
// address `segments` equal contiguous segments that together hold `amount_bytes`, spread at
// equal strides over the active range (segment i starts at range start + i x stride, stride =
// range length / segments). amount_bytes 0 = the whole range (segments must then be 1).
struct ActiveRangeSpec {
  double pct = 100.0;                    // used when length_bytes is not set
  uint64_t offset_bytes = 0;             // explicit form: offset + length
  std::optional<uint64_t> length_bytes;  // set => explicit form
  uint64_t amount_bytes = 0;             // 0 = the whole range
  uint32_t segments = 1;
};

// A run ends at the first limit reached. At least one of duration/bytes/ios must be set.
struct RunLimits {
  uint64_t duration_ns = 0;         // 0 = none
  uint64_t bytes = 0;               // total across threads; 0 = none
  double bytes_range_multiple = 0;  // e.g. 2.0 = "write 2x the active range"; 0 = none
  uint64_t ios = 0;                 // total across threads; 0 = none
};

struct RateLimit {
  double iops = 0;      // total across threads; 0 = unlimited
  double mb_per_s = 0;  // decimal MB/s, total across threads; 0 = unlimited
};

inline constexpr uint32_t k_default_submit_batch = 4;

// One stream of a weighted multi-stream workload (RWSW's "applied test workload": a captured
// workload's top IO streams run together). Each IO draws its stream by the weights (relative,
// normalised by resolve()), then draws its direction, size and offset inside that stream as a
// single-stream workload would; a sequential stream keeps its own per-thread cursor. The
// stream's LBA range is a part of the workload's active range, in percent of it:
// [range_start_pct, range_start_pct + range_pct).
struct StreamSpec {
  std::string name;  // "RND 4KiB W"; reports only
  double weight = 1.0;
  AccessPattern pattern = AccessPattern::random;
  double read_pct = 100.0;
  std::vector<BlockSizeWeight> block_sizes = std::vector<BlockSizeWeight>(1);  // one 4 KiB size
  double range_start_pct = 0;
  double range_pct = 100.0;

  friend bool operator==(const StreamSpec&, const StreamSpec&) = default;
};

struct WorkloadSpec {
  AccessPattern pattern = AccessPattern::random;
  double read_pct = 100.0;
  std::vector<BlockSizeWeight> block_sizes = std::vector<BlockSizeWeight>(1);  // one 4 KiB size
  ActiveRangeSpec active_range;
  std::vector<AccessZone> zones;  // empty = uniform over the active range
  uint32_t threads = 1;
  uint32_t queue_depth = 1;
  RunLimits limits;
  RateLimit rate;
  uint64_t seed = 1;
  DataPattern data = DataPattern::random;
  std::string engine = "libaio";
  // IOs per engine submit call at most; 0 = every free slot in one call. Measured on a loop
  // device (asynchronous completion by its worker thread, like a drive), RND 4 KiB QD 32:
  // batches of 4 did 1.2-1.3x the IOPS of one call for all free slots (the device starts on the
  // first IOs while the rest are prepared) at the same CPU per IO; on zram (completion inside
  // the submit call) 0.93x. docs/performance.md "Round 3".
  uint32_t submit_batch = k_default_submit_batch;
  std::vector<int> cpus;     // pin thread i to cpus[i % size]; empty = no pinning
  uint64_t interval_ns = 0;  // per-interval series period; 0 = off
  // Align every IO to the logical block only (the PTS "alignment" setting = logical), instead
  // of power-of-two sizes to themselves.
  bool align_to_logical_block = false;
  // Non-empty: a weighted multi-stream workload (StreamSpec); pattern, read_pct, block_sizes,
  // zones and the AR amount/segments of this spec are then not used (resolve() rejects zones
  // and AR segments with streams). A sequential stream's cursor is not resumed (WorkloadState).
  std::vector<StreamSpec> streams;
};

// A block size with the offset alignment resolve() chose for it: the block size itself when
// it is a power of two (and >= the logical block), else the logical block size.
struct ResolvedBlockSize {
  uint64_t bytes = 0;
  uint64_t align_bytes = 0;
  double probability = 0;
};

struct ResolvedZone {
  uint64_t offset_bytes = 0;  // absolute
  uint64_t length_bytes = 0;
  double probability = 0;
};

// Where random IOs of one block size may start inside one zone: `count` aligned offsets
// first_offset_bytes + k * align_bytes (k < count). An IO starts inside its zone and lies
// inside the active range (it may run past the zone's end into the next zone, as in fio).
struct OffsetSlots {
  uint64_t first_offset_bytes = 0;  // absolute
  uint64_t count = 0;               // >= 1 after resolve()
};

// Sequential pattern: thread i owns [start + i * slice, start + (i + 1) * slice).
struct SequentialLayout {
  uint64_t start_bytes = 0;  // absolute; aligned to the largest block alignment
  uint64_t slice_bytes = 0;  // per thread; multiple of that alignment, >= max_block_bytes
};

struct ResolvedWorkload {
  WorkloadSpec spec;
  engine::TargetGeometry geometry;
  uint64_t range_offset_bytes = 0;  // absolute, aligned
  uint64_t range_length_bytes = 0;
  // Bytes random IOs can address: the range, or the segments' total under an AR Amount
  // (limits.bytes_range_multiple multiplies this).
  uint64_t addressed_bytes = 0;
  bool segmented = false;  // zones are ActiveRange segments: IOs never leave their segment
  std::vector<ResolvedBlockSize> block_sizes;
  std::vector<ResolvedZone> zones;  // always >= 1 (the whole range when spec.zones is empty;
                                    // the AR segments under an AR Amount)
  uint64_t max_block_bytes = 0;
  uint64_t byte_limit = 0;  // from limits.bytes or bytes_range_multiple; 0 = none
  bool writes = false;      // read_pct < 100
  // Random pattern: slots[zone * block_sizes.size() + size_index]. Empty for sequential.
  std::vector<OffsetSlots> slots;
  SequentialLayout sequential;  // sequential pattern only
  // Multi-stream workloads: each stream resolved as a single-stream workload over its part of
  // the range (its spec.seed derived from the workload's seed and the stream's index), with
  // its probability (the normalised weight). The fields above then hold the union: the range
  // spans the streams' ranges, max_block_bytes and writes cover every stream, block_sizes,
  // zones and slots are empty.
  std::vector<ResolvedWorkload> streams;
  std::vector<double> stream_probabilities;
};

// Sane maxima (a typo such as --threads 10000 fails fast instead of exhausting memory):
inline constexpr uint32_t k_max_threads = 1024;
inline constexpr uint32_t k_max_queue_depth = 65536;        // = the default fs.aio-max-nr
inline constexpr uint64_t k_max_block_bytes = 64ULL << 20;  // 64 MiB per IO
inline constexpr uint64_t k_max_buffer_bytes = 8ULL << 30;  // threads x QD x max block
inline constexpr uint64_t k_min_interval_ns = 10'000'000;   // 10 ms interval series
inline constexpr uint32_t k_max_ar_segments = 65536;
inline constexpr size_t k_max_streams = 256;  // PTS-C 1.0 used 2048; slots = segments x sizes

ResolvedWorkload resolve(const WorkloadSpec& spec, const engine::TargetGeometry& geometry);

// Thread `index`'s share of a total split over `threads` (the remainder goes to the first
// threads), so the shares sum to the total exactly.
constexpr uint64_t thread_share(uint64_t total, uint32_t threads, uint32_t index) noexcept {
  return total / threads + (index < total % threads ? 1 : 0);
}

const char* to_string(AccessPattern pattern) noexcept;
const char* to_string(DataPattern pattern) noexcept;

}  // namespace ptsuite::workload
