// Contract: the ONE interface through which the device layer talks to a device. Every ioctl
// (NVMe admin pass-through, SG_IO for SCSI and ATA PASS-THROUGH, BLK* range and query ioctls)
// and every data write of a purge goes through a Passthrough; tests substitute a fake that
// records the commands and plays back scripted responses (tests/unit/device/).
//
// Channels come from two factories:
//   * open_read_only_channel(path): never opened for writing, and the channel itself refuses
//     (EPERM, nothing sent) every command that is not on the read-only allow-list below —
//     so a read-only caller cannot erase a drive even by mistake, root or not.
//   * open_destructive_channel(path, allow_destructive): passes the safety gate
//     (device/safety.hpp) first, then opens O_RDWR | O_EXCL (the kernel's exclusive claim also
//     fails while the device is mounted or held).
// Methods return the outcome as data (errno values, NVMe status, SCSI status and sense); they
// never throw. A channel is used by one thread at a time.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <ptsuite/device/safety.hpp>
#include <ptsuite/util/writable_target.hpp>

namespace ptsuite::device {

enum class DataDirection { none, to_device, from_device };

// One NVMe admin command (NVMe Base Spec 2.0, "Common Command Format" of a submission queue entry);
// the kernel's struct nvme_admin_cmd carries the same fields (NVME_IOCTL_ADMIN_CMD).
struct NvmeAdminCommand {
  uint8_t opcode = 0;
  uint32_t nsid = 0;
  std::array<uint32_t, 6> cdw{};  // CDW10..CDW15
  DataDirection direction = DataDirection::none;
  std::vector<uint8_t> data;  // to_device: the payload; from_device: sized by the caller
  uint32_t timeout_ms = 0;    // 0: the kernel's admin timeout
};

struct NvmeCompletion {
  int os_error = 0;     // errno when the ioctl itself failed (ENOTTY on a non-NVMe device)
  uint16_t status = 0;  // completion status field without the phase bit: SCT in 10:8, SC in 7:0
  uint32_t dw0 = 0;     // command specific result (Dword 0)
  [[nodiscard]] bool ok() const { return os_error == 0 && status == 0; }
};

// One SCSI command through SG_IO (the kernel's struct sg_io_hdr, interface 'S').
struct ScsiCommand {
  std::vector<uint8_t> cdb;
  DataDirection direction = DataDirection::none;
  std::vector<uint8_t> data;  // to_device: parameter list; from_device: sized by the caller
  uint32_t timeout_ms = 60'000;
};

struct ScsiResult {
  int os_error = 0;            // errno when the ioctl itself failed
  uint8_t status = 0;          // SCSI status (SAM-5 status codes): 00h GOOD, 02h CHECK CONDITION
  uint16_t host_status = 0;    // SG_IO host_status (DID_*); 0 = OK
  uint16_t driver_status = 0;  // SG_IO driver_status; 0 or 08h (DRIVER_SENSE) with sense
  std::vector<uint8_t> sense;  // sense data as returned (empty when none)
  int32_t residual = 0;        // bytes not transferred
  [[nodiscard]] bool transport_ok() const { return os_error == 0 && host_status == 0; }
  [[nodiscard]] bool good() const { return transport_ok() && status == 0 && (driver_status & 0x0f) == 0; }
};

enum class BlockRangeOp {
  discard,         // BLKDISCARD (regular files: fallocate PUNCH_HOLE)
  secure_discard,  // BLKSECDISCARD
  zero_out,        // BLKZEROOUT
};

enum class BlockQuery {
  size_bytes,            // BLKGETSIZE64 (regular files: st_size)
  logical_block_bytes,   // BLKSSZGET
  physical_block_bytes,  // BLKPBSZGET
  read_only,             // BLKROGET
};

class Passthrough {
 public:
  virtual ~Passthrough() = default;
  virtual NvmeCompletion nvme_admin(NvmeAdminCommand& cmd) = 0;
  virtual ScsiResult scsi(ScsiCommand& cmd) = 0;
  // 0 or -errno.
  virtual int block_range(BlockRangeOp op, uint64_t offset_bytes, uint64_t length_bytes) = 0;
  virtual int block_query(BlockQuery query, uint64_t& value) = 0;
  // Writes all of `data` at `offset_bytes` (data and offset aligned to the logical block).
  // 0 or -errno.
  virtual int write_at(std::span<const uint8_t> data, uint64_t offset_bytes) = 0;
  // fsync: 0 or -errno.
  virtual int flush() = 0;
};

// The read-only allow-list (pure; used by the read-only channel, tested on its own):
//   NVMe admin: Get Log Page 02h, Identify 06h, Get Features 0Ah (Base Spec 2.0 admin opcodes).
//   SCSI: INQUIRY 12h, REQUEST SENSE 03h, TEST UNIT READY 00h, MODE SENSE(10) 5Ah,
//   LOG SENSE 4Dh, READ CAPACITY(16) 9Eh/10h, REPORT SUPPORTED OPERATION CODES A3h/0Ch (SPC-4,
//   SBC-3); ATA PASS-THROUGH(16) 85h carrying IDENTIFY DEVICE ECh, SMART READ DATA and
//   RETURN STATUS (B0h D0h/DAh), READ LOG EXT 2Fh, CHECK POWER MODE E5h, SANITIZE STATUS EXT
//   (B4h feature 0000h) (ACS-3).
bool nvme_admin_is_read_only(const NvmeAdminCommand& cmd);
bool scsi_is_read_only(const ScsiCommand& cmd);

std::unique_ptr<Passthrough> open_read_only_channel(const std::string& path);
// `target`: the target gate's token (device/target_gate.hpp). Runs the safety checks again,
// then opens it O_RDWR (and O_EXCL, the kernel's exclusive claim, for a block device).
// Throws SafetyRefusal (exit 3) from the checks, SystemError (exit 5) when the open fails
// (EBUSY: the device is in use).
std::unique_ptr<Passthrough> open_destructive_channel(const WritableTarget& target, bool allow_destructive,
                                                      const SystemRoots& roots = {});

// "Invalid Field in Command (SCT 0h SC 02h)": NVMe status for messages (Base Spec 2.0 status field).
std::string describe_nvme_status(uint16_t status);

}  // namespace ptsuite::device
