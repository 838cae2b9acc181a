// Contract: what a workload run wrote, rebuilt from the generator and the data filler alone
// (IoGenerator + DataFiller, docs/workload.md "Data pattern"), to check a target image read
// back after the run. Works at any queue depth and thread count with the `random` pattern: the
// 16-byte tag of every 512-byte sector names the (thread, IO sequence, sector) that wrote it,
// so the order in which overlapping writes completed does not matter.
//
//   WrittenDataModel model(workload, ios_per_thread);     // the IOs each thread generated
//   std::string problem = model.check(image, before);      // "" when consistent
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::test_support {

class WrittenDataModel {
 public:
  // The first `ios_per_thread` IOs of every thread of `w` (data pattern `random`).
  WrittenDataModel(const workload::ResolvedWorkload& w, uint64_t ios_per_thread);

  // "" when `image` (the whole target after the run) is exactly what the run can have left:
  // every sector some write targeted holds the tag of one of the writes that targeted it,
  // followed by bytes 16..511 of the base of one of that thread's buffers at that sector, and
  // every other sector equals `before` (the image before the run). Else the first problem.
  [[nodiscard]] std::string check(std::span<const std::byte> image, std::span<const std::byte> before) const;

  [[nodiscard]] uint64_t write_ios() const noexcept { return m_write_ios; }
  [[nodiscard]] uint64_t write_bytes() const noexcept { return m_write_bytes; }
  [[nodiscard]] uint64_t read_ios() const noexcept { return m_read_ios; }

 private:
  struct SectorOrigin {
    uint64_t position = 0;  // absolute sector index the tag was written to
    uint32_t thread = 0;
    uint32_t sector_in_io = 0;
  };
  [[nodiscard]] std::string check_written(std::span<const std::byte> sector, uint64_t position) const;

  std::map<std::pair<uint64_t, uint64_t>, SectorOrigin> m_tags;  // (w0, w1) -> where it belongs
  std::vector<bool> m_targeted;                                  // per sector of the target
  std::vector<std::vector<std::vector<std::byte>>> m_bases;      // [thread][buffer] base bytes
  uint64_t m_write_ios = 0;
  uint64_t m_write_bytes = 0;
  uint64_t m_read_ios = 0;
};

}  // namespace ptsuite::test_support
