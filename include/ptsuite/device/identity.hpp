// Contract: who the device under test is. identify(path) picks the transport from sysfs and
// asks the device itself through read-only pass-through (NVMe Identify Controller/Namespace,
// ATA IDENTIFY DEVICE via SAT, SCSI INQUIRY/VPD/READ CAPACITY(16)); when pass-through fails
// or does not apply it falls back to sysfs and says so in `notes`. Loop devices, zram and
// regular files are described with what is knowable for them. Devices that are neither NVMe
// nor SCSI/ATA (virtio, mmc, ...) are identified from sysfs only and are never opened.
//
// identify() never writes and never throws for an unidentifiable device (it returns what it
// found); it throws UsageError for a path that does not exist or is neither a block device
// nor a regular file. identify_via() is the same logic over a given channel and sysfs
// description, for tests with a fake Passthrough. The PTS runner embeds to_json(identity) in
// results.json (the report's Device Under Test column).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <ptsuite/device/passthrough.hpp>
#include <ptsuite/device/safety.hpp>
#include <ptsuite/results/run_header.hpp>

namespace ptsuite::device {

enum class Transport { nvme, ata, scsi, virtio, loop, zram, file, other };
std::string to_string(Transport t);

struct LbaFormatInfo {
  uint32_t index = 0;
  uint32_t data_bytes = 0;
  uint32_t metadata_bytes = 0;
  uint32_t relative_performance = 0;  // NVMe RP: 0 best .. 3 degraded
};

// What purges the device offers (what `--method auto` chooses from).
struct PurgeCapabilities {
  bool nvme_format = false;                 // OACS bit 1
  bool nvme_format_crypto = false;          // FNA bit 2: SES=2 supported
  bool nvme_format_all_namespaces = false;  // FNA bits 0/1: format/erase hits every namespace
  bool nvme_sanitize_block = false, nvme_sanitize_crypto = false, nvme_sanitize_overwrite = false;
  bool ata_security_erase = false, ata_enhanced_erase = false;
  bool ata_sanitize_block = false, ata_sanitize_crypto = false, ata_sanitize_overwrite = false;
  std::optional<bool> scsi_sanitize;  // REPORT SUPPORTED OPERATION CODES; nullopt: unknown
  std::optional<bool> scsi_format_unit;
  bool discard = false;  // queue/discard_max_bytes > 0 (or a regular file)
  // NVMe Sanitize Status log (Get Log Page 81h) estimates, seconds, when the drive gives them
  // (read at identify time for a controller that supports a sanitize action; the plan's ETA).
  std::optional<uint32_t> nvme_sanitize_block_s, nvme_sanitize_crypto_s, nvme_sanitize_overwrite_s;
};

struct AtaSecurity {
  bool supported = false, enabled = false, locked = false, frozen = false, count_expired = false;
  bool enhanced_erase_supported = false;
  uint32_t erase_minutes = 0, enhanced_erase_minutes = 0;
};

struct QueueParams {      // /sys/block/<disk>/queue
  std::string scheduler;  // the active one ("none", "mq-deadline")
  std::optional<uint32_t> nr_requests, max_sectors_kb, max_hw_sectors_kb;
  std::optional<uint64_t> discard_max_bytes;
  std::optional<bool> rotational;
  std::string write_cache;  // "write back" / "write through" (the kernel's view)
};

struct DeviceIdentity {
  std::string path;            // as given
  std::string canonical_path;  // symlinks resolved
  std::string kernel_name;     // "nvme0n1", "sda", "loop3"; empty for files
  std::string device_path;     // the node pass-through uses (the whole disk for a partition)
  Transport transport = Transport::other;
  std::string source;  // "nvme-identify", "ata-identify", "scsi-inquiry", "sysfs", "file"
  std::string vendor, model, serial, firmware;
  std::string identifier;  // WWN/EUI/NAA when known
  // The medium itself where a name and serial cannot tell it: a file's "file st_dev N st_ino N",
  // a loop device's backing file's ("loop backing file st_dev N st_ino N offset N"); empty for
  // drives (their serial and identifier do). Resume compares it (pts/run.hpp).
  std::string medium;
  // The serial a lab gave a device that reports none (--asset-serial, or the asset registry of
  // device/drives.hpp); "" otherwise. Never filled by identify(): the caller sets it.
  std::string asset_serial;
  uint64_t capacity_bytes = 0;
  uint32_t logical_block_bytes = 0;
  uint32_t physical_block_bytes = 0;
  std::optional<bool> rotational;
  bool is_partition = false;
  // NVMe
  uint32_t nvme_nsid = 0;
  std::optional<LbaFormatInfo> lba_format_in_use;
  std::vector<LbaFormatInfo> lba_formats;
  uint32_t protection_type = 0;
  std::optional<uint32_t> warning_temperature_kelvin;   // NVMe WCTEMP
  std::optional<uint32_t> critical_temperature_kelvin;  // NVMe CCTEMP
  // Write cache as identified (write_cache.hpp reads/sets it).
  std::optional<bool> write_cache_present;
  std::optional<bool> write_cache_enabled;
  PurgeCapabilities purge;
  std::optional<AtaSecurity> ata_security;
  QueueParams queue;
  // Loop / zram / file specifics.
  std::string backing_file;                      // loop
  std::optional<bool> direct_io;                 // loop: dio
  std::optional<uint64_t> backing_offset_bytes;  // loop
  std::string compression_algorithm;             // zram
  std::optional<uint64_t> disksize_bytes;        // zram
  std::string filesystem;                        // file: the filesystem type holding it
  std::string mount_point;                       // file: where that filesystem is mounted
  std::string pci_address;                       // nearest PCI function in sysfs
  std::vector<std::string> notes;                // fallbacks and failures, one line each

  // A drive whose purge needs --confirm-serial (anything but loop, zram and files).
  [[nodiscard]] bool is_real_drive() const {
    return transport != Transport::loop && transport != Transport::zram && transport != Transport::file;
  }
};

DeviceIdentity identify(const std::string& path, const SystemRoots& roots = {});

// Everything sysfs says about one block device (no device IO), plus the transport it implies.
DeviceIdentity identify_from_sysfs(const std::string& path, const std::string& kernel_name,
                                   const SystemRoots& roots = {});
// Refines `base` (from identify_from_sysfs) by pass-through over `channel` for NVMe, ATA and
// SCSI transports; on failure keeps the sysfs values and adds a note.
DeviceIdentity identify_via(Passthrough& channel, DeviceIdentity base);

// The identity as results.json records it (results::DeviceRecord, written by its writer in
// src/results: results/record_writers.hpp); to_json() writes that record.
results::DeviceRecord device_record(const DeviceIdentity& id);
// Every purge capability by its schema name, in the schema's order (nullopt: unknown).
std::vector<std::pair<std::string, std::optional<bool>>> purge_capability_list(const PurgeCapabilities& caps);
void to_json(nlohmann::json& j, const DeviceIdentity& id);

// The identity fields a resume must find unchanged, from an identity as to_json() recorded it
// (journal/run.json, scenario-run.json): transport, vendor, model, serial, firmware, identifier
// (WWN/EUI/NGUID), medium (a file's or a loop device's backing inode), capacity and logical
// block, and a file's resolved path. Drives are matched by serial and identifier, never by their
// /dev name (it may change across reboots). One fingerprint for every kind of run that resumes.
nlohmann::json identity_fingerprint(const nlohmann::json& identity);
// "serial was \"A\", now \"B\"": the first field in which two fingerprints differ (for the
// refusal's message); "the identities differ" when none can be named.
std::string fingerprint_difference(const nlohmann::json& before, const nlohmann::json& now);

}  // namespace ptsuite::device
