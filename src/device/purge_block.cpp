// The fallbacks, NOT PTS purges: BLKSECDISCARD, BLKDISCARD (fallocate PUNCH_HOLE on a file)
// and zero-fill (O_DIRECT writes of zeros over the whole target), in chunks with progress.
#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "device/purge_internal.hpp"

namespace ptsuite::device::detail {

namespace {

constexpr uint64_t k_zero_chunk_bytes = 4ULL << 20;  // 4 MiB per write
constexpr uint64_t k_min_discard_chunk_bytes = 64ULL << 20;

struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};

bool capacity(PurgeContext& ctx, uint64_t& bytes, uint64_t& block) {
  if (const int rc = ctx.channel.block_query(BlockQuery::size_bytes, bytes); rc != 0) {
    ctx.finish(PurgeOutcome::failed, fmt::format("cannot read the target's size: {}", std::strerror(-rc)));
    return false;
  }
  block = 512;
  if (uint64_t lbs = 0; ctx.channel.block_query(BlockQuery::logical_block_bytes, lbs) == 0 && lbs >= 512) block = lbs;
  return true;
}

// 0 done; -EOPNOTSUPP when the first range is refused as unsupported; another -errno on failure.
int run_discard(PurgeContext& ctx, bool secure, uint64_t size, uint64_t block) {
  const char* name = secure ? "secure discard" : "discard";
  const uint64_t chunk = std::max<uint64_t>(k_min_discard_chunk_bytes, (size / 100 + block - 1) / block * block);
  for (uint64_t offset = 0; offset < size;) {
    if (ctx.timed_out()) return -ETIMEDOUT;
    const uint64_t length = std::min(chunk, size - offset);
    const int rc =
        ctx.channel.block_range(secure ? BlockRangeOp::secure_discard : BlockRangeOp::discard, offset, length);
    if (rc != 0) {
      if (offset == 0 && (rc == -EOPNOTSUPP || rc == -ENOTTY || rc == -EINVAL)) return -EOPNOTSUPP;
      ctx.message(fmt::format("{} failed at byte {}: {}", name, offset, std::strerror(-rc)));
      return rc;
    }
    offset += length;
    ctx.progress(static_cast<double>(offset) / static_cast<double>(size), std::string(name));
  }
  return 0;
}

int run_zero_fill(PurgeContext& ctx, uint64_t size, uint64_t block) {
  std::unique_ptr<uint8_t, FreeDeleter> buffer(static_cast<uint8_t*>(std::aligned_alloc(4096, k_zero_chunk_bytes)));
  if (!buffer) return -ENOMEM;
  std::memset(buffer.get(), 0, k_zero_chunk_bytes);
  const uint64_t whole = size / block * block;
  for (uint64_t offset = 0; offset < whole;) {
    if (ctx.timed_out()) return -ETIMEDOUT;
    const uint64_t length = std::min(k_zero_chunk_bytes, whole - offset);
    if (const int rc = ctx.channel.write_at({buffer.get(), static_cast<size_t>(length)}, offset); rc != 0) {
      ctx.message(fmt::format("zero-fill failed at byte {}: {}", offset, std::strerror(-rc)));
      return rc;
    }
    offset += length;
    ctx.progress(static_cast<double>(offset) / static_cast<double>(whole), "zero-fill");
  }
  if (whole != size) ctx.message(fmt::format("the last {} bytes (less than one block) were not written", size - whole));
  return ctx.channel.flush();
}

}  // namespace

void run_block_fallback(PurgeContext& ctx, PurgeMethod method, bool chain) {
  uint64_t size = 0, block = 512;
  if (!capacity(ctx, size, block)) return;
  ctx.record.parameters.bytes = size;
  for (PurgeMethod m = method;;) {
    ctx.record.method = to_string(m);
    int rc = 0;
    if (m == PurgeMethod::zero_fill) {
      ctx.record.description = "zero-fill: zeros written over every block (NOT a PTS purge)";
      rc = run_zero_fill(ctx, size, block);
    } else {
      const bool secure = m == PurgeMethod::secure_discard;
      ctx.record.description = secure ? "BLKSECDISCARD over the whole target (NOT a PTS purge)"
                                      : "BLKDISCARD / TRIM over the whole target (NOT a PTS purge)";
      rc = run_discard(ctx, secure, size, block);
      if (rc == -EOPNOTSUPP) {
        const PurgeMethod next = secure ? PurgeMethod::discard : PurgeMethod::zero_fill;
        if (chain) {
          ctx.message(fmt::format("{} is not supported by {}; trying {}", to_string(m), ctx.id.path, to_string(next)));
          m = next;
          continue;
        }
        ctx.finish(PurgeOutcome::failed, fmt::format("{} is not supported by {}", to_string(m), ctx.id.path));
        return;
      }
    }
    if (rc == -ETIMEDOUT) {
      ctx.finish(PurgeOutcome::timed_out, fmt::format("{} timed out; the target is only partly cleared", to_string(m)));
    } else if (rc != 0) {
      ctx.finish(PurgeOutcome::failed, fmt::format("{} failed: {}", to_string(m), std::strerror(-rc)));
    } else {
      ctx.finish(PurgeOutcome::succeeded,
                 fmt::format("{} completed over {} bytes (not a PTS purge)", to_string(m), size));
    }
    return;
  }
}

}  // namespace ptsuite::device::detail
