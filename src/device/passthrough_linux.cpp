// The real Passthrough: Linux ioctls on a block device (or, for the purge fallbacks, a regular
// file). NVME_IOCTL_ADMIN_CMD (linux/nvme_ioctl.h), SG_IO (scsi/sg.h, sg_io_hdr interface
// 'S'), BLKDISCARD / BLKSECDISCARD / BLKZEROOUT / BLKGETSIZE64 / BLKSSZGET / BLKPBSZGET /
// BLKROGET (linux/fs.h).
#include <ptsuite/device/passthrough.hpp>

#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <scsi/sg.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cerrno>

#include <ptsuite/device/openers.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/fd.hpp>

namespace ptsuite::device {

namespace {

constexpr uint8_t k_nvme_get_log_page = 0x02;  // NVMe Base Spec 2.0 admin opcodes
constexpr uint8_t k_nvme_identify = 0x06;
constexpr uint8_t k_nvme_get_features = 0x0a;

bool ata_passthrough_is_read_only(const std::vector<uint8_t>& cdb) {
  // ATA PASS-THROUGH(16) (SAT-3 ATA PASS-THROUGH(16)): FEATURES 15:8 in byte 3, 7:0 in byte 4;
  // COMMAND in byte 14.
  if (cdb.size() < 16) {
    return false;
  }
  const uint16_t features = static_cast<uint16_t>((cdb[3] << 8) | cdb[4]);
  switch (cdb[14]) {
    case 0xec:  // IDENTIFY DEVICE (ACS-3)
    case 0x2f:  // READ LOG EXT (ACS-3)
    case 0xe5:  // CHECK POWER MODE (ACS-3)
      return true;
    case 0xb0:  // SMART (ACS-3): READ DATA D0h, RETURN STATUS DAh
      return features == 0xd0 || features == 0xda;
    case 0xb4:  // SANITIZE STATUS EXT is feature 0000h (ACS-3 SANITIZE STATUS EXT)
      return features == 0x0000;
    default:
      return false;
  }
}

class LinuxPassthrough final : public Passthrough {
 public:
  LinuxPassthrough(UniqueFd fd, bool read_only, bool is_block)
      : m_fd(std::move(fd)), m_read_only(read_only), m_is_block(is_block) {}

  NvmeCompletion nvme_admin(NvmeAdminCommand& cmd) override {
    NvmeCompletion out;
    if (m_read_only && !nvme_admin_is_read_only(cmd)) {
      out.os_error = EPERM;
      return out;
    }
    nvme_admin_cmd raw{};
    raw.opcode = cmd.opcode;
    raw.nsid = cmd.nsid;
    raw.cdw10 = cmd.cdw[0];
    raw.cdw11 = cmd.cdw[1];
    raw.cdw12 = cmd.cdw[2];
    raw.cdw13 = cmd.cdw[3];
    raw.cdw14 = cmd.cdw[4];
    raw.cdw15 = cmd.cdw[5];
    raw.timeout_ms = cmd.timeout_ms;
    if (cmd.direction != DataDirection::none && !cmd.data.empty()) {
      raw.addr = reinterpret_cast<uintptr_t>(cmd.data.data());
      raw.data_len = static_cast<uint32_t>(cmd.data.size());
    }
    const int rc = ::ioctl(m_fd.get(), NVME_IOCTL_ADMIN_CMD, &raw);
    if (rc < 0) {
      out.os_error = errno;
    } else {
      out.status = static_cast<uint16_t>(rc & 0x7fff);
      out.dw0 = raw.result;
    }
    return out;
  }

  ScsiResult scsi(ScsiCommand& cmd) override {
    ScsiResult out;
    if (m_read_only && !scsi_is_read_only(cmd)) {
      out.os_error = EPERM;
      return out;
    }
    if (cmd.cdb.empty() || cmd.cdb.size() > 16) {
      out.os_error = EINVAL;
      return out;
    }
    std::vector<uint8_t> sense(64, 0);
    sg_io_hdr_t hdr{};
    hdr.interface_id = 'S';
    hdr.cmdp = cmd.cdb.data();
    hdr.cmd_len = static_cast<unsigned char>(cmd.cdb.size());
    hdr.sbp = sense.data();
    hdr.mx_sb_len = static_cast<unsigned char>(sense.size());
    hdr.timeout = cmd.timeout_ms;
    hdr.dxfer_direction = SG_DXFER_NONE;
    if (cmd.direction != DataDirection::none && !cmd.data.empty()) {
      hdr.dxfer_direction = cmd.direction == DataDirection::to_device ? SG_DXFER_TO_DEV : SG_DXFER_FROM_DEV;
      hdr.dxferp = cmd.data.data();
      hdr.dxfer_len = static_cast<unsigned>(cmd.data.size());
    }
    if (::ioctl(m_fd.get(), SG_IO, &hdr) < 0) {
      out.os_error = errno;
      return out;
    }
    out.status = hdr.status;
    out.host_status = hdr.host_status;
    out.driver_status = hdr.driver_status;
    out.residual = hdr.resid;
    sense.resize(hdr.sb_len_wr);
    out.sense = std::move(sense);
    return out;
  }

  int block_range(BlockRangeOp op, uint64_t offset_bytes, uint64_t length_bytes) override {
    if (m_read_only) {
      return -EPERM;
    }
    if (!m_is_block) {
      int mode = 0;
      switch (op) {
        case BlockRangeOp::discard:
          mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
          break;
        case BlockRangeOp::zero_out:
          mode = FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE;
          break;
        case BlockRangeOp::secure_discard:
          return -EOPNOTSUPP;
      }
      return ::fallocate(m_fd.get(), mode, static_cast<off_t>(offset_bytes), static_cast<off_t>(length_bytes)) == 0
                 ? 0
                 : -errno;
    }
    uint64_t range[2] = {offset_bytes, length_bytes};
    unsigned long request = BLKDISCARD;
    if (op == BlockRangeOp::secure_discard) request = BLKSECDISCARD;
    if (op == BlockRangeOp::zero_out) request = BLKZEROOUT;
    return ::ioctl(m_fd.get(), request, range) == 0 ? 0 : -errno;
  }

  int block_query(BlockQuery query, uint64_t& value) override {
    if (!m_is_block) {
      struct stat st {};
      if (::fstat(m_fd.get(), &st) != 0) return -errno;
      value = query == BlockQuery::size_bytes  ? static_cast<uint64_t>(st.st_size)
              : query == BlockQuery::read_only ? 0
                                               : 512;
      return 0;
    }
    int rc = 0;
    switch (query) {
      case BlockQuery::size_bytes: {
        uint64_t bytes = 0;
        rc = ::ioctl(m_fd.get(), BLKGETSIZE64, &bytes);
        value = bytes;
        break;
      }
      case BlockQuery::logical_block_bytes: {
        int bytes = 0;
        rc = ::ioctl(m_fd.get(), BLKSSZGET, &bytes);
        value = static_cast<uint64_t>(bytes);
        break;
      }
      case BlockQuery::physical_block_bytes: {
        unsigned int bytes = 0;
        rc = ::ioctl(m_fd.get(), BLKPBSZGET, &bytes);
        value = bytes;
        break;
      }
      case BlockQuery::read_only: {
        int ro = 0;
        rc = ::ioctl(m_fd.get(), BLKROGET, &ro);
        value = static_cast<uint64_t>(ro);
        break;
      }
    }
    return rc == 0 ? 0 : -errno;
  }

  int write_at(std::span<const uint8_t> data, uint64_t offset_bytes) override {
    if (m_read_only) {
      return -EPERM;
    }
    size_t done = 0;
    while (done < data.size()) {
      const ssize_t n =
          ::pwrite(m_fd.get(), data.data() + done, data.size() - done, static_cast<off_t>(offset_bytes + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return -errno;
      }
      if (n == 0) return -EIO;
      done += static_cast<size_t>(n);
    }
    return 0;
  }

  int flush() override { return ::fsync(m_fd.get()) == 0 ? 0 : -errno; }

 private:
  UniqueFd m_fd;
  bool m_read_only;
  bool m_is_block;
};

bool is_block_device(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode);
}

}  // namespace

bool nvme_admin_is_read_only(const NvmeAdminCommand& cmd) {
  return cmd.direction != DataDirection::to_device &&
         (cmd.opcode == k_nvme_get_log_page || cmd.opcode == k_nvme_identify || cmd.opcode == k_nvme_get_features);
}

bool scsi_is_read_only(const ScsiCommand& cmd) {
  if (cmd.cdb.empty() || cmd.direction == DataDirection::to_device) {
    return false;
  }
  switch (cmd.cdb[0]) {
    case 0x00:  // TEST UNIT READY (SPC-4)
    case 0x03:  // REQUEST SENSE (SPC-4)
    case 0x12:  // INQUIRY (SPC-4)
    case 0x4d:  // LOG SENSE (SPC-4)
    case 0x5a:  // MODE SENSE(10) (SPC-4)
      return true;
    case 0x9e:  // SERVICE ACTION IN(16) / READ CAPACITY(16) (SBC-3)
      return cmd.cdb.size() >= 2 && (cmd.cdb[1] & 0x1f) == 0x10;
    case 0xa3:  // MAINTENANCE IN / REPORT SUPPORTED OPERATION CODES (SPC-4)
      return cmd.cdb.size() >= 2 && (cmd.cdb[1] & 0x1f) == 0x0c;
    case 0x85:  // ATA PASS-THROUGH(16) (SAT-3 ATA PASS-THROUGH(16))
      return ata_passthrough_is_read_only(cmd.cdb);
    default:
      return false;
  }
}

std::unique_ptr<Passthrough> open_read_only_channel(const std::string& path) {
  const bool block = is_block_device(path);
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | (block ? O_NONBLOCK : 0)));
  if (!fd.valid()) {
    throw SystemError("cannot open " + path + " for reading", errno);
  }
  return std::make_unique<LinuxPassthrough>(std::move(fd), true, block);
}

std::unique_ptr<Passthrough> open_destructive_channel(const WritableTarget& target, bool allow_destructive,
                                                      const SystemRoots& roots) {
  const std::string& path = target.path();
  require_destructive_allowed(path, allow_destructive, roots);
  const bool block = target.is_block_device();
  // O_EXCL on a block device is the kernel's exclusive claim: EBUSY while mounted or held.
  const int flags = block ? O_EXCL : 0;
  UniqueFd fd = open_for_writing(target, flags | O_DIRECT);
  if (!fd.valid() && errno == EINVAL) {
    fd = open_for_writing(target, flags);  // a filesystem without O_DIRECT (tmpfs)
  }
  if (!fd.valid()) {
    const int err = errno;
    if (err == EBUSY) {
      throw SafetyRefusal(
          fmt::format("cannot claim {} exclusively: it is in use ({}); stop that user of the "
                      "device, then run again",
                      path, describe_device_openers(find_device_openers(path, 0, roots))));
    }
    if ((err == EPERM || err == EACCES) && ::geteuid() == 0) {
      throw device_denied_to_root(path);
    }
    throw SystemError("cannot open " + path + " for writing", err);
  }
  return std::make_unique<LinuxPassthrough>(std::move(fd), false, block);
}

std::string describe_nvme_status(uint16_t status) {
  const unsigned sct = (status >> 8) & 0x7;
  const unsigned sc = status & 0xff;
  std::string name;
  if (sct == 0) {  // Generic Command Status (Base Spec 2.0 "Generic Command Status Values")
    switch (sc) {
      case 0x00:
        name = "Successful Completion";
        break;
      case 0x01:
        name = "Invalid Command Opcode";
        break;
      case 0x02:
        name = "Invalid Field in Command";
        break;
      case 0x04:
        name = "Data Transfer Error";
        break;
      case 0x06:
        name = "Internal Error";
        break;
      case 0x07:
        name = "Command Abort Requested";
        break;
      case 0x0b:
        name = "Invalid Namespace or Format";
        break;
      case 0x0c:
        name = "Command Sequence Error";
        break;
      case 0x1c:
        name = "Sanitize Failed";
        break;
      case 0x1d:
        name = "Sanitize In Progress";
        break;
      default:
        break;
    }
  } else if (sct == 1) {  // Command Specific Status (Base Spec 2.0 "Command Specific Status Values")
    switch (sc) {
      case 0x0a:
        name = "Invalid Format";
        break;
      case 0x0d:
        name = "Feature Identifier Not Saveable";
        break;
      case 0x0e:
        name = "Feature Not Changeable";
        break;
      case 0x20:
        name = "Namespace is Write Protected";
        break;
      default:
        break;
    }
  } else if (sct == 2) {
    name = "Media and Data Integrity Error";
  }
  if (name.empty()) name = "status";
  return fmt::format("{} (SCT {:X}h SC {:02X}h{})", name, sct, sc, (status & 0x4000) ? ", DNR" : "");
}

}  // namespace ptsuite::device
