// Test helper: a Passthrough that records every command and answers from scripted handlers,
// plus small simulated drives (NVMe controller, ATA drive behind SAT, SCSI disk) whose state
// machines answer like the specs say: sanitize progress sequences, a frozen or failing ATA
// security erase, REQUEST SENSE progress. No device is touched.
#pragma once

#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <ptsuite/device/ata.hpp>
#include <ptsuite/device/nvme.hpp>
#include <ptsuite/device/passthrough.hpp>
#include <ptsuite/device/purge.hpp>

namespace ptsuite::device::testing {

class FakePassthrough : public Passthrough {
 public:
  struct RangeCall {
    BlockRangeOp op;
    uint64_t offset;
    uint64_t length;
  };

  std::vector<NvmeAdminCommand> nvme_sent;
  std::vector<ScsiCommand> scsi_sent;
  std::vector<RangeCall> ranges;
  std::vector<std::pair<uint64_t, uint64_t>> writes;  // offset, length
  bool wrote_only_zeros = true;
  int flushes = 0;

  std::function<NvmeCompletion(NvmeAdminCommand&)> on_nvme = [](NvmeAdminCommand&) {
    return NvmeCompletion{ENOTTY, 0, 0};
  };
  std::function<ScsiResult(ScsiCommand&)> on_scsi = [](ScsiCommand&) {
    ScsiResult r;
    r.os_error = EINVAL;
    return r;
  };
  std::function<int(const RangeCall&)> on_range = [](const RangeCall&) { return 0; };
  uint64_t size_bytes = 64ULL << 20;
  uint64_t logical_block_bytes = 512;

  NvmeCompletion nvme_admin(NvmeAdminCommand& cmd) override {
    nvme_sent.push_back(cmd);
    return on_nvme(cmd);
  }
  ScsiResult scsi(ScsiCommand& cmd) override {
    scsi_sent.push_back(cmd);
    return on_scsi(cmd);
  }
  int block_range(BlockRangeOp op, uint64_t offset, uint64_t length) override {
    ranges.push_back({op, offset, length});
    return on_range(ranges.back());
  }
  int block_query(BlockQuery q, uint64_t& value) override {
    value = q == BlockQuery::size_bytes ? size_bytes : q == BlockQuery::read_only ? 0 : logical_block_bytes;
    return 0;
  }
  int write_at(std::span<const uint8_t> data, uint64_t offset) override {
    writes.emplace_back(offset, data.size());
    for (const uint8_t b : data) {
      if (b != 0) wrote_only_zeros = false;
    }
    return 0;
  }
  int flush() override {
    ++flushes;
    return 0;
  }

  // ATA commands sent (COMMAND byte 14 of each ATA PASS-THROUGH(16)), in order.
  [[nodiscard]] std::vector<uint8_t> ata_commands() const {
    std::vector<uint8_t> out;
    for (const auto& c : scsi_sent) {
      if (c.cdb.size() == 16 && c.cdb[0] == 0x85) out.push_back(c.cdb[14]);
    }
    return out;
  }
  [[nodiscard]] std::vector<uint8_t> nvme_opcodes() const {
    std::vector<uint8_t> out;
    for (const auto& c : nvme_sent) out.push_back(c.opcode);
    return out;
  }
};

// A purge clock that never sleeps: each sleep advances fake time.
struct FakeClock {
  uint64_t now = 0;
  int sleeps = 0;
  PurgeClock clock() {
    return PurgeClock{[this] { return now; },
                      [this](uint64_t ns) {
                        now += ns;
                        ++sleeps;
                      }};
  }
};

// ---- simulated NVMe controller ------------------------------------------------------------
struct FakeNvme {
  std::vector<uint8_t> identify_controller;
  std::vector<uint8_t> identify_namespace;
  std::vector<uint8_t> smart_log;
  // Sanitize status log answers, one per Get Log Page 81h (the last one repeats).
  std::deque<std::pair<uint16_t, uint16_t>> sanitize_log{{0, 0}};  // SPROG, SSTAT
  uint16_t format_status = 0;
  uint16_t sanitize_status = 0;
  uint32_t features_06h = 1;
  bool format_resets_write_cache = false;  // some drives return to their default after Format NVM

  void install(FakePassthrough& fake) {
    fake.on_nvme = [this](NvmeAdminCommand& cmd) {
      NvmeCompletion c;
      auto fill = [&](const std::vector<uint8_t>& src) {
        std::memcpy(cmd.data.data(), src.data(), std::min(src.size(), cmd.data.size()));
      };
      switch (cmd.opcode) {
        case nvme::k_op_identify:
          fill((cmd.cdw[0] & 0xff) == 1 ? identify_controller : identify_namespace);
          break;
        case nvme::k_op_get_log_page:
          if ((cmd.cdw[0] & 0xff) == nvme::k_log_smart) {
            fill(smart_log);
          } else {
            const auto [sprog, sstat] = sanitize_log.front();
            if (sanitize_log.size() > 1) sanitize_log.pop_front();
            std::fill(cmd.data.begin(), cmd.data.end(), 0);
            cmd.data[0] = static_cast<uint8_t>(sprog);
            cmd.data[1] = static_cast<uint8_t>(sprog >> 8);
            cmd.data[2] = static_cast<uint8_t>(sstat);
            cmd.data[3] = static_cast<uint8_t>(sstat >> 8);
          }
          break;
        case nvme::k_op_get_features:
          c.dw0 = features_06h;
          break;
        case nvme::k_op_set_features:
          features_06h = cmd.cdw[1];
          break;
        case nvme::k_op_format_nvm:
          c.status = format_status;
          if (format_resets_write_cache) features_06h = 1;
          break;
        case nvme::k_op_sanitize:
          c.status = sanitize_status;
          break;
        default:
          c.status = 0x0001;  // Invalid Command Opcode
      }
      return c;
    };
  }
};

// ---- ATA answers through SAT --------------------------------------------------------------
// A CHECK CONDITION with descriptor sense carrying the ATA Status Return descriptor (SAT-3
// SAT-3 ATA Status Return descriptor), as a SATL answers CK_COND=1 commands.
inline ScsiResult ata_reply(uint8_t status, uint8_t error, uint16_t count = 0, uint64_t lba = 0) {
  ScsiResult r;
  r.status = 0x02;
  r.driver_status = 0x08;
  const bool failed = (status & 0x01) != 0;
  r.sense = {0x72,
             static_cast<uint8_t>(failed ? 0x0b : 0x01),
             0x00,
             static_cast<uint8_t>(failed ? 0x00 : 0x1d),
             0,
             0,
             0,
             14,
             0x09,
             0x0c,
             0x01,
             error,
             static_cast<uint8_t>(count >> 8),
             static_cast<uint8_t>(count),
             static_cast<uint8_t>(lba >> 24),
             static_cast<uint8_t>(lba),
             static_cast<uint8_t>(lba >> 32),
             static_cast<uint8_t>(lba >> 8),
             static_cast<uint8_t>(lba >> 40),
             static_cast<uint8_t>(lba >> 16),
             0x40,
             status};
  return r;
}
inline ScsiResult ata_ok(uint16_t count = 0, uint64_t lba = 0) { return ata_reply(0x50, 0x00, count, lba); }
inline ScsiResult ata_abort() { return ata_reply(0x51, 0x04); }

// How Linux's libata SATL turns the drive's answer into the SG_IO result (seen with kernel
// 6.1 on AHCI, tests/vm): with CK_COND=0 a successful command completes GOOD with no sense;
// a failed one is CHECK CONDITION with the ATA Status Return descriptor, CK_COND or not; and
// with CK_COND=1 on a PIO data transfer it reports the PIO Setup FIS's status (DRQ still set)
// as CHECK CONDITION / ABORTED COMMAND in fixed-format sense, although the data arrived.
inline ScsiResult libata_satl(const ScsiCommand& cmd, ScsiResult device_reply) {
  const bool ck_cond = (cmd.cdb[2] & 0x20) != 0;
  const unsigned protocol = (cmd.cdb[1] >> 1) & 0x0f;
  const bool failed = device_reply.sense.size() > 1 && device_reply.sense[1] == 0x0b;
  if (ck_cond && (protocol == 4 || protocol == 5)) {
    ScsiResult r;
    r.status = 0x02;
    r.driver_status = 0x08;
    r.sense = {0x70, 0x00, 0x0b, 0, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0x00, 0x00, 0, 0, 0, 0};
    return r;
  }
  if (!ck_cond && !failed) return ScsiResult{};
  return device_reply;
}

// A SATA drive's Security feature set state machine (ACS-3 Security feature set) plus SANITIZE.
struct FakeAtaDrive {
  std::vector<uint8_t> identify;  // base IDENTIFY DEVICE data; word 128 is rebuilt from state
  bool supported = true, enabled = false, locked = false, frozen = false, enhanced = true;
  std::string password;
  bool erase_fails = false, disable_fails = false, set_password_fails = false;
  bool erase_leaves_password = false;  // some drives keep security enabled after an erase
  std::vector<std::string> passwords_seen;
  std::vector<bool> erase_enhanced_flags;
  // SANITIZE STATUS EXT answers (COUNT, LBA progress); the last one repeats.
  std::deque<std::pair<uint16_t, uint16_t>> sanitize_status{{0x8000, 0}};
  std::vector<uint8_t> smart_data;

  std::vector<uint8_t> identify_now() const {
    std::vector<uint8_t> d = identify;
    uint16_t w128 = static_cast<uint16_t>((supported ? 0x01 : 0) | (enabled ? 0x02 : 0) | (locked ? 0x04 : 0) |
                                          (frozen ? 0x08 : 0) | (enhanced ? 0x20 : 0));
    d[256] = static_cast<uint8_t>(w128);
    d[257] = static_cast<uint8_t>(w128 >> 8);
    uint16_t w85 = static_cast<uint16_t>(d[170] | (d[171] << 8));
    w85 = static_cast<uint16_t>(enabled ? (w85 | 0x0002) : (w85 & ~0x0002));
    d[170] = static_cast<uint8_t>(w85);
    d[171] = static_cast<uint8_t>(w85 >> 8);
    d[511] = 0;
    d[510] = 0xa5;
    uint8_t sum = 0;
    for (size_t i = 0; i < 511; ++i) sum = static_cast<uint8_t>(sum + d[i]);
    d[511] = static_cast<uint8_t>(0x100 - sum);
    return d;
  }

  void install(FakePassthrough& fake) {
    fake.on_scsi = [this](ScsiCommand& cmd) -> ScsiResult {
      if (cmd.cdb.size() != 16 || cmd.cdb[0] != 0x85) return ata_abort();
      return libata_satl(cmd, answer(cmd));
    };
  }

  // The drive's own answer to one ATA PASS-THROUGH(16), before the SATL (libata_satl).
  ScsiResult answer(ScsiCommand& cmd) {
    {
      const std::string given(
          reinterpret_cast<const char*>(cmd.data.data() + 2),
          cmd.data.size() >= 34 ? strnlen(reinterpret_cast<const char*>(cmd.data.data() + 2), 32) : 0);
      const uint16_t features = static_cast<uint16_t>((cmd.cdb[3] << 8) | cmd.cdb[4]);
      switch (cmd.cdb[14]) {
        case ata::k_identify_device: {
          const auto d = identify_now();
          std::memcpy(cmd.data.data(), d.data(), 512);
          return ata_ok();
        }
        case ata::k_security_set_password:
          passwords_seen.push_back(given);
          if (set_password_fails || frozen || enabled) return ata_abort();
          password = given;
          enabled = true;
          return ata_ok();
        case ata::k_security_erase_prepare:
          return frozen ? ata_abort() : ata_ok();
        case ata::k_security_erase_unit:
          erase_enhanced_flags.push_back((cmd.data[0] & 0x02) != 0);
          if (erase_fails || given != password) return ata_abort();
          if (!erase_leaves_password) enabled = false;
          return ata_ok();
        case ata::k_security_unlock:
          if (given != password) return ata_abort();
          locked = false;
          return ata_ok();
        case ata::k_security_disable_password:
          if (disable_fails || locked || given != password) return ata_abort();
          enabled = false;
          return ata_ok();
        case ata::k_sanitize: {
          if (features != 0x0000) return ata_ok();  // BLOCK ERASE / CRYPTO SCRAMBLE accepted
          const auto [count, progress] = sanitize_status.front();
          if (sanitize_status.size() > 1) sanitize_status.pop_front();
          return ata_ok(count, progress);
        }
        case ata::k_smart:
          if (features == 0xd0) {
            std::memcpy(cmd.data.data(), smart_data.data(), std::min<size_t>(512, smart_data.size()));
            return ata_ok();
          }
          return ata_ok(0, 0xc24f00);
        case ata::k_set_features: {
          uint16_t w85 = static_cast<uint16_t>(identify[170] | (identify[171] << 8));
          w85 = static_cast<uint16_t>(features == 0x02 ? (w85 | 0x20) : (w85 & ~0x20));
          identify[170] = static_cast<uint8_t>(w85);
          identify[171] = static_cast<uint8_t>(w85 >> 8);
          return ata_ok();
        }
        default:
          return ata_abort();
      }
    }
  }
};

}  // namespace ptsuite::device::testing
