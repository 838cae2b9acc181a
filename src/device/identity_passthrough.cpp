// identify_via(): refines a sysfs identity with what the device reports about itself through
// read-only pass-through: NVMe Identify Controller/Namespace + Get Features 06h, ATA IDENTIFY
// DEVICE (SAT), SCSI INQUIRY / VPD / READ CAPACITY(16) / MODE SENSE caching page / REPORT
// SUPPORTED OPERATION CODES.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include <ptsuite/device/ata.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/nvme.hpp>
#include <ptsuite/device/scsi.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::device {

namespace {

LbaFormatInfo to_info(const nvme::LbaFormat& f) {
  return LbaFormatInfo{f.index, f.data_bytes, f.metadata_bytes, f.relative_performance};
}

// The Sanitize Status log's time estimates (FFFFFFFFh or 0: the drive gives none). Read only;
// a controller that refuses the log page simply has no estimate.
void read_sanitize_estimates(Passthrough& ch, PurgeCapabilities& purge) {
  auto cmd = nvme::get_log_page(nvme::k_log_sanitize_status, nvme::k_nsid_all, 512);
  if (!ch.nvme_admin(cmd).ok() || cmd.data.size() < 20) {
    return;
  }
  const nvme::SanitizeStatus st = nvme::parse_sanitize_status(cmd.data);
  const auto estimate = [](uint32_t s) { return s == 0 || s == 0xFFFFFFFFu ? std::nullopt : std::optional(s); };
  purge.nvme_sanitize_block_s = estimate(st.estimate_block_erase_s);
  purge.nvme_sanitize_crypto_s = estimate(st.estimate_crypto_erase_s);
  purge.nvme_sanitize_overwrite_s = estimate(st.estimate_overwrite_s);
}

bool identify_nvme(Passthrough& ch, DeviceIdentity& id) {
  auto ctrl_cmd = nvme::identify_controller();
  const auto ctrl_done = ch.nvme_admin(ctrl_cmd);
  if (!ctrl_done.ok()) {
    id.notes.push_back(ctrl_done.os_error != 0
                           ? fmt::format("NVMe Identify Controller failed: {}", std::strerror(ctrl_done.os_error))
                           : "NVMe Identify Controller failed: " + describe_nvme_status(ctrl_done.status));
    return false;
  }
  const auto ctrl = nvme::parse_identify_controller(ctrl_cmd.data);
  id.source = "nvme-identify";
  id.model = ctrl.model;
  id.serial = ctrl.serial;
  id.firmware = ctrl.firmware;
  if (ctrl.wctemp_kelvin != 0) id.warning_temperature_kelvin = ctrl.wctemp_kelvin;
  if (ctrl.cctemp_kelvin != 0) id.critical_temperature_kelvin = ctrl.cctemp_kelvin;
  id.purge.nvme_format = ctrl.format_supported();
  id.purge.nvme_format_crypto = ctrl.format_supported() && ctrl.crypto_erase_supported();
  id.purge.nvme_format_all_namespaces =
      ctrl.format_applies_to_all_namespaces() || ctrl.secure_erase_applies_to_all_namespaces();
  id.purge.nvme_sanitize_block = ctrl.sanitize_block_erase();
  id.purge.nvme_sanitize_crypto = ctrl.sanitize_crypto_erase();
  id.purge.nvme_sanitize_overwrite = ctrl.sanitize_overwrite();
  if (id.purge.nvme_sanitize_block || id.purge.nvme_sanitize_crypto || id.purge.nvme_sanitize_overwrite) {
    read_sanitize_estimates(ch, id.purge);
  }
  id.write_cache_present = ctrl.volatile_write_cache_present();
  if (!ctrl.volatile_write_cache_present()) id.write_cache_enabled = false;

  const uint32_t nsid = id.nvme_nsid != 0 ? id.nvme_nsid : 1;
  id.nvme_nsid = nsid;
  auto ns_cmd = nvme::identify_namespace(nsid);
  if (const auto ns_done = ch.nvme_admin(ns_cmd); ns_done.ok()) {
    const auto ns = nvme::parse_identify_namespace(ns_cmd.data);
    for (const auto& f : ns.lba_formats) id.lba_formats.push_back(to_info(f));
    if (const auto current = ns.current_format()) {
      id.lba_format_in_use = to_info(*current);
      id.logical_block_bytes = current->data_bytes;
      id.capacity_bytes = ns.size_blocks * current->data_bytes;
    }
    id.protection_type = ns.protection_type();
  } else {
    id.notes.push_back(fmt::format("NVMe Identify Namespace {} failed; capacity from sysfs", nsid));
  }
  if (ctrl.volatile_write_cache_present()) {
    auto feat = nvme::get_features(nvme::k_feature_volatile_write_cache);
    if (const auto done = ch.nvme_admin(feat); done.ok()) {
      id.write_cache_enabled = (done.dw0 & 0x1) != 0;  // Feature 06h: bit 0 WCE
    }
  }
  return true;
}

bool identify_ata(Passthrough& ch, DeviceIdentity& id) {
  auto cmd = ata::identify_device();
  const auto raw = ch.scsi(cmd);
  const auto result = ata::decode_result(raw);
  if (!result.ok()) {
    id.notes.push_back("ATA IDENTIFY DEVICE failed: " + result.problem);
    return false;
  }
  const auto dev = ata::parse_identify_device(cmd.data);
  id.source = "ata-identify";
  id.transport = Transport::ata;
  id.model = dev.model;
  id.serial = dev.serial;
  id.firmware = dev.firmware;
  if (id.vendor.empty() || id.vendor == "ATA") id.vendor = "ATA";
  id.logical_block_bytes = dev.logical_sector_bytes;
  id.physical_block_bytes = dev.physical_sector_bytes;
  id.capacity_bytes = dev.sectors * dev.logical_sector_bytes;
  if (dev.rotation_rate == 1)
    id.rotational = false;
  else if (dev.rotation_rate >= 0x0401 && dev.rotation_rate <= 0xfffe)
    id.rotational = true;
  if (dev.wwn != 0) id.identifier = fmt::format("naa.{:016x}", dev.wwn);
  id.write_cache_present = dev.write_cache_supported;
  id.write_cache_enabled = dev.write_cache_supported && dev.write_cache_enabled;
  const auto& s = dev.security;
  id.ata_security = AtaSecurity{s.supported,     s.enabled,
                                s.locked,        s.frozen,
                                s.count_expired, s.enhanced_erase_supported,
                                s.erase_minutes, s.enhanced_erase_minutes};
  id.purge.ata_security_erase = s.supported;
  id.purge.ata_enhanced_erase = s.supported && s.enhanced_erase_supported;
  id.purge.ata_sanitize_block = dev.sanitize_supported && dev.sanitize_block_erase;
  id.purge.ata_sanitize_crypto = dev.sanitize_supported && dev.sanitize_crypto;
  id.purge.ata_sanitize_overwrite = dev.sanitize_supported && dev.sanitize_overwrite;
  id.purge.discard = id.purge.discard || dev.trim_supported;
  if (!dev.checksum_valid) id.notes.push_back("ATA IDENTIFY DEVICE checksum (word 255) is invalid");
  return true;
}

std::optional<std::vector<uint8_t>> scsi_read_trimmed(Passthrough& ch, ScsiCommand cmd) {
  const auto r = ch.scsi(cmd);
  if (!r.good()) return std::nullopt;
  cmd.data.resize(cmd.data.size() -
                  static_cast<size_t>(std::clamp<int32_t>(r.residual, 0, static_cast<int32_t>(cmd.data.size()))));
  return cmd.data;
}

std::optional<bool> scsi_supports(Passthrough& ch, uint8_t opcode, std::optional<uint16_t> sa) {
  const auto data = scsi_read_trimmed(ch, scsi::report_supported_opcode(opcode, sa));
  if (!data || data->size() < 2) return std::nullopt;
  return scsi::parse_opcode_supported(*data);
}

bool identify_scsi(Passthrough& ch, DeviceIdentity& id) {
  auto cmd = scsi::inquiry();
  const auto r = ch.scsi(cmd);
  if (!r.good()) {
    id.notes.push_back("SCSI INQUIRY failed: " + scsi::describe_result(r));
    return false;
  }
  const auto inq = scsi::parse_inquiry(cmd.data);
  id.source = "scsi-inquiry";
  id.vendor = inq.vendor;
  id.model = inq.product;
  id.firmware = inq.revision;
  std::vector<uint8_t> pages;
  if (auto d = scsi_read_trimmed(ch, scsi::inquiry_vpd(0x00))) pages = scsi::parse_supported_vpd_pages(*d);
  auto has = [&](uint8_t p) { return std::find(pages.begin(), pages.end(), p) != pages.end(); };
  if (has(0x80)) {
    if (auto d = scsi_read_trimmed(ch, scsi::inquiry_vpd(0x80))) id.serial = scsi::parse_unit_serial(*d);
  }
  if (has(0x83)) {
    if (auto d = scsi_read_trimmed(ch, scsi::inquiry_vpd(0x83))) {
      if (auto ident = scsi::parse_device_identifier(*d); !ident.empty()) id.identifier = ident;
    }
  }
  if (has(0xb1)) {
    if (auto d = scsi_read_trimmed(ch, scsi::inquiry_vpd(0xb1))) {
      const uint16_t rate = scsi::parse_rotation_rate(*d);
      if (rate == 1)
        id.rotational = false;
      else if (rate >= 0x0401 && rate <= 0xfffe)
        id.rotational = true;
    }
  }
  uint8_t protection_type = 0;
  if (auto d = scsi_read_trimmed(ch, scsi::read_capacity16())) {
    const auto cap = scsi::parse_read_capacity16(*d);
    id.capacity_bytes = cap.bytes();
    id.logical_block_bytes = cap.block_bytes;
    id.physical_block_bytes = cap.block_bytes << cap.blocks_per_physical_exponent;
    protection_type = cap.protection_type;
  } else {
    id.notes.push_back("READ CAPACITY(16) failed; capacity from sysfs");
  }
  id.protection_type = protection_type;
  if (auto d = scsi_read_trimmed(ch, scsi::mode_sense10(0x08))) {
    try {
      const auto page = scsi::parse_caching_page(*d);
      id.write_cache_present = true;
      id.write_cache_enabled = page.write_cache_enabled;
    } catch (const Error& e) {
      id.notes.push_back(e.what());
    }
  }
  id.purge.scsi_sanitize = scsi_supports(ch, 0x48, uint16_t{0x02});  // SANITIZE, BLOCK ERASE
  id.purge.scsi_format_unit = scsi_supports(ch, 0x04, std::nullopt);
  return true;
}

}  // namespace

DeviceIdentity identify_via(Passthrough& channel, DeviceIdentity id) {
  try {
    switch (id.transport) {
      case Transport::nvme:
        identify_nvme(channel, id);
        break;
      case Transport::ata:
        if (!identify_ata(channel, id)) identify_scsi(channel, id);
        break;
      case Transport::scsi: {
        if (identify_scsi(channel, id) && id.vendor == "ATA") {
          // SAT: an ATA drive behind a SCSI translation layer answers IDENTIFY DEVICE too.
          identify_ata(channel, id);
        }
        break;
      }
      default:
        break;
    }
  } catch (const Error& e) {
    id.notes.push_back(fmt::format("pass-through response unusable ({}); kept the sysfs values", e.what()));
  }
  return id;
}

}  // namespace ptsuite::device
