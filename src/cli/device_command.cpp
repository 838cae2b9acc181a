// `ptsuite device info|purge|health|write-cache|platform TARGET` and `device list`: the device
// layer on the command line. TARGET may be serial:SERIAL (cli/target_option.hpp).
// Human-readable text by default, the same JSON the PTS runner embeds with --json.
// purge: exit 0 succeeded, 2 bad method, 3 refused (safety, consent, serial, frozen), 5 failed.
#include <fmt/format.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include <ptsuite/device/drives.hpp>
#include <ptsuite/device/health.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/platform.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/device/write_cache.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"
#include "cli/target_option.hpp"

namespace ptsuite::cli {

namespace {

struct DeviceOptions {
  std::string target;
  bool json = false;
  std::string method = "auto";
  bool allow_destructive = false;
  std::string confirm_serial;
  unsigned ses = 1;
  std::string timeout;
  std::string set_cache;  // write-cache --state on|off
};

std::string yes_no(const std::optional<bool>& v) { return v ? (*v ? "yes" : "no") : "unknown"; }

void print_identity(const device::DeviceIdentity& id) {
  auto line = [](const char* key, const std::string& value) {
    if (!value.empty()) fmt::print("{:<22}{}\n", key, printable(value));  // a model may hold escapes
  };
  line("target", id.path);
  line("transport", device::to_string(id.transport) + " (from " + id.source + ")");
  line("vendor", id.vendor);
  line("model", id.model);
  line("serial", id.serial);
  line("firmware", id.firmware);
  line("identifier", id.identifier);
  line("capacity", fmt::format("{} bytes ({})", id.capacity_bytes, units::format_size_human(id.capacity_bytes)));
  line("logical block", id.logical_block_bytes ? fmt::format("{} B", id.logical_block_bytes) : "");
  line("physical block", id.physical_block_bytes ? fmt::format("{} B", id.physical_block_bytes) : "");
  if (id.lba_format_in_use) {
    line("LBA format in use", fmt::format("{} ({} B + {} B metadata)", id.lba_format_in_use->index,
                                          id.lba_format_in_use->data_bytes, id.lba_format_in_use->metadata_bytes));
  }
  line("rotational", yes_no(id.rotational));
  line("write cache",
       fmt::format("present {}, enabled {}", yes_no(id.write_cache_present), yes_no(id.write_cache_enabled)));
  if (id.ata_security) {
    const auto& s = *id.ata_security;
    line("ATA security", fmt::format("supported {}, enabled {}, locked {}, frozen {}, enhanced erase {}",
                                     s.supported ? "yes" : "no", s.enabled ? "yes" : "no", s.locked ? "yes" : "no",
                                     s.frozen ? "yes" : "no", s.enhanced_erase_supported ? "yes" : "no"));
  }
  line("purge (auto)",
       device::to_string(device::choose_purge_method(id, device::PurgeMethod::auto_select, id.is_partition)));
  line("scheduler", id.queue.scheduler);
  line("backing file", id.backing_file);
  if (id.direct_io) line("direct IO", *id.direct_io ? "yes" : "no");
  line("compression", id.compression_algorithm);
  line("filesystem", id.filesystem.empty() ? "" : id.filesystem + " on " + id.mount_point);
  line("PCI address", id.pci_address);
  for (const auto& note : id.notes) line("note", note);
}

int run_info(const DeviceOptions& o) {
  const auto id = device::identify(o.target);
  if (o.json) {
    fmt::print("{}\n", nlohmann::json(id).dump(2));
  } else {
    print_identity(id);
  }
  return 0;
}

int run_purge(const DeviceOptions& o) {
  device::PurgeOptions opts;
  opts.method = device::parse_purge_method(o.method);
  opts.allow_destructive = o.allow_destructive;
  if (!o.confirm_serial.empty()) opts.confirm_serial = o.confirm_serial;
  if (o.ses != 1 && o.ses != 2) throw UsageError("--ses", "must be 1 (user data erase) or 2 (cryptographic erase)");
  opts.nvme_secure_erase_setting = static_cast<uint8_t>(o.ses);
  if (!o.timeout.empty()) opts.timeout_ns = units::parse_duration_ns(o.timeout, "--timeout");
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  opts.on_progress = [tty](const device::PurgeProgress& p) {
    if (!tty) return;
    if (p.fraction >= 0) {
      fmt::print(stderr, "\r  {:5.1f}%  {}\x1b[K", p.fraction * 100.0, p.note);
    } else {
      fmt::print(stderr, "\r  {}\x1b[K", p.note);
    }
  };
  opts.on_message = [tty](const std::string& line) {
    fmt::print(stderr, "{}purge: {}\n", tty ? "\r\x1b[K" : "", line);
  };
  const device::PurgeRecord record = device::purge(o.target, opts);
  if (tty) fmt::print(stderr, "\r\x1b[K");
  if (o.json) {
    fmt::print("{}\n", nlohmann::json(record).dump(2));
  } else {
    fmt::print("{} {}: {} ({}, {})\n", record.target, record.method, device::to_string(record.outcome),
               record.pts_compliant ? "PTS purge" : "NOT a PTS purge", units::format_duration(record.duration_ns));
    fmt::print("  {}\n", record.description);
  }
  if (record.outcome != device::PurgeOutcome::succeeded) {
    throw SystemError(fmt::format("purge of {} {}: {}", record.target, device::to_string(record.outcome),
                                  record.messages.empty() ? std::string("no detail") : record.messages.back()));
  }
  return 0;
}

int run_health(const DeviceOptions& o) {
  const auto id = device::identify(o.target);
  const auto snapshot = device::read_health(id.path, id);
  if (o.json) {
    fmt::print("{}\n", nlohmann::json(snapshot).dump(2));
    return 0;
  }
  const nlohmann::json j = snapshot;
  for (const auto& [key, value] : j.items()) {
    if (!value.is_null() && !(value.is_string() && value.get<std::string>().empty())) {
      fmt::print("{:<28}{}\n", key, value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
  return 0;
}

void print_cache_state(const char* label, const device::WriteCacheState& s) {
  if (!s.applicable) {
    fmt::print("{:<22}{}\n", label, s.note.empty() ? "not applicable" : s.note);
    return;
  }
  fmt::print("{:<22}{} ({})\n", label, s.enabled ? (*s.enabled ? "enabled" : "disabled") : "unknown", s.mechanism);
}

// `device write-cache TARGET [--set on|off]`: reads the volatile write cache; with --set,
// changes it (not saved across power cycles), reads it back and exits 5 when the device did
// not keep the requested state.
// `ptsuite device write-cache --json`: the state found, and after a change what was asked and
// read back.
struct WriteCacheReport {
  std::string target;
  device::WriteCacheState before;
  std::optional<device::WriteCacheState> after;
  bool requested_enabled = false;
};

void to_json(nlohmann::json& j, const WriteCacheReport& r) {
  if (!r.after) {
    j = nlohmann::json{{"target", r.target}, {"state", r.before}};
    return;
  }
  j = nlohmann::json{
      {"target", r.target}, {"before", r.before}, {"after", *r.after}, {"requested_enabled", r.requested_enabled}};
}

int run_write_cache(const DeviceOptions& o) {
  // A change is a write to the device: the target gate before anything else (mounted, held,
  // loop devices over it, another ptsuite, consent); its lock is held to the end.
  std::optional<device::TargetGuard> guard;
  if (!o.set_cache.empty()) {
    if (o.set_cache != "on" && o.set_cache != "off") throw UsageError("--state", "must be on or off");
    guard.emplace(device::pass_target_gate(
        {o.target, device::TargetAccess::read_write, o.allow_destructive, "device write-cache"}));
  }
  const auto id = device::identify(o.target);
  const device::WriteCacheState before = device::read_write_cache(o.target);
  if (o.set_cache.empty()) {
    if (o.json) {
      fmt::print("{}\n", nlohmann::json(WriteCacheReport{o.target, before, std::nullopt, false}).dump(2));
    } else {
      print_cache_state("write cache", before);
    }
    return 0;
  }
  if (id.is_partition) {
    throw UsageError("TARGET", fmt::format("{} is a partition; the write cache belongs to the whole device ({}): "
                                           "name the whole device",
                                           o.target, id.device_path));
  }
  if (!before.applicable) throw UsageError("--state", before.note);
  const bool want = o.set_cache == "on";
  auto channel = device::open_destructive_channel(guard->writable(), o.allow_destructive);
  device::set_write_cache(*channel, id, want);
  const device::WriteCacheState after = device::read_write_cache(*channel, id);
  if (o.json) {
    fmt::print("{}\n", nlohmann::json(WriteCacheReport{o.target, before, after, want}).dump(2));
  } else {
    print_cache_state("before", before);
    print_cache_state("after (read back)", after);
  }
  if (after.enabled != want) {
    throw SystemError(fmt::format("{} did not keep its write cache {}: read back {}", o.target,
                                  want ? "enabled" : "disabled",
                                  after.enabled ? (*after.enabled ? "enabled" : "disabled") : "unknown"));
  }
  return 0;
}

// `device list`: one line per drive of this host (device/drives.hpp), or the records as JSON.
int run_device_list(const DeviceOptions& o) {
  const std::vector<device::DriveEntry> drives = device::list_drives();
  if (o.json) {
    fmt::print("{}\n", nlohmann::json(drives).dump(2));
    return 0;
  }
  fmt::print("{:<14} {:<7} {:<22} {:<28} {:<10} {:>10}  {}\n", "device", "kind", "serial", "model", "firmware",
             "capacity", "by-id / PCI slot / refused");
  for (const device::DriveEntry& d : drives) {
    const std::string serial = !d.serial.empty()         ? d.serial
                               : !d.asset_serial.empty() ? d.asset_serial + " (asset)"
                                                         : "-";
    std::string where = d.by_id.empty() ? (d.backing_file.empty() ? "-" : "over " + d.backing_file) : d.by_id;
    if (!d.pci_slot.empty()) where += "  PCI " + d.pci_slot;
    fmt::print("{:<14} {:<7} {:<22} {:<28} {:<10} {:>10}  {}\n", d.path, device::to_string(d.transport),
               printable(serial), printable(d.model.empty() ? "-" : d.model),
               printable(d.firmware.empty() ? "-" : d.firmware), units::format_size_human(d.capacity_bytes),
               printable(where));
    if (!d.refused.empty()) fmt::print("{:<14} refused for writes: {}\n", "", printable(d.refused));
  }
  fmt::print("{} drive(s); a run names one as --target serial:SERIAL\n", drives.size());
  return 0;
}

int run_platform(const DeviceOptions& o) {
  const auto platform = device::capture_platform(o.target);
  const nlohmann::json j = platform;
  if (o.json) {
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  for (const auto& [key, value] : j.items()) {
    if (!value.is_null()) fmt::print("{:<22}{}\n", key, value.is_string() ? value.get<std::string>() : value.dump());
  }
  return 0;
}

}  // namespace

void register_device_command(CLI::App& app, CommandSlot& slot) {
  auto options = std::make_shared<DeviceOptions>();
  CLI::App* device = app.add_subcommand("device", "Device identity, purge, health and test-platform capture");
  device->require_subcommand(1);

  CLI::App* info = device->add_subcommand("info", "Identify a device, loop device, zram device or file (read-only)");
  info->add_option("target", options->target, "Block device or file")->check(paths::target_read())->required();
  add_shared_flag(info, "--json", options->json, "Print the identity record as JSON");
  info->callback([&slot, options] {
    slot.action = [options] {
      (void)resolve_target_option(options->target);
      return run_info(*options);
    };
  });

  CLI::App* list = device->add_subcommand(
      "list", "The host's drives (NVMe, SATA, SAS, virtio, loop): serial, model, firmware, capacity, by-id, PCI slot");
  add_shared_flag(list, "--json", options->json, "Print the drives as a JSON array");
  list->callback([&slot, options] { slot.action = [options] { return run_device_list(*options); }; });

  CLI::App* purge = device->add_subcommand("purge", "Purge (erase) a device before a PTS test: DESTROYS ALL DATA");
  purge->add_option("target", options->target, "Block device or file")->check(paths::target_write())->required();
  purge
      ->add_option("--method", options->method,
                   "auto|nvme-format|nvme-sanitize-block|nvme-sanitize-crypto|nvme-sanitize-overwrite|"
                   "ata-security-erase|ata-sanitize-block|ata-sanitize-crypto|scsi-sanitize|scsi-format|"
                   "secure-discard|discard|zero-fill (default auto)")
      ->check(paths::none());
  add_shared_flag(purge, "--allow-destructive", options->allow_destructive, "Consent to destroying the target's data");
  add_shared_option(purge, "--confirm-serial", options->confirm_serial,
                    "The drive's serial number (required for real drives; see `ptsuite device info`)")
      ->check(paths::none());
  purge->add_option("--ses", options->ses, "nvme-format Secure Erase Setting: 1 user data (default), 2 crypto")
      ->check(paths::none());
  purge->add_option("--timeout", options->timeout, "Give up waiting after this long (e.g. 2h); default per method")
      ->check(paths::none());
  add_shared_flag(purge, "--json", options->json, "Print the purge record as JSON");
  purge->callback([&slot, options] {
    slot.action = [options] {
      const device::ResolvedTarget named = resolve_target_option(options->target);
      if (named.by_serial && !named.asset && options->confirm_serial.empty()) {
        options->confirm_serial = device::identify(named.path).serial;  // serial:SERIAL is the confirmation
      }
      return run_purge(*options);
    };
  });

  CLI::App* health = device->add_subcommand("health", "Temperature, warnings, wear and media errors (read-only)");
  health->add_option("target", options->target, "Block device")->check(paths::target_read())->required();
  add_shared_flag(health, "--json", options->json, "Print the snapshot as JSON");
  health->callback([&slot, options] {
    slot.action = [options] {
      (void)resolve_target_option(options->target);
      return run_health(*options);
    };
  });

  CLI::App* cache = device->add_subcommand(
      "write-cache",
      "Read the volatile write cache; with --set on|off, change it (until power cycle) and read it back");
  cache->add_option("target", options->target, "Whole block device (NVMe namespace, ATA or SCSI disk)")
      ->check(paths::target_write())
      ->required();
  cache->add_option("--state", options->set_cache, "on (WCE) or off (WCD); changing needs --allow-destructive")
      ->check(paths::none())
      ->type_name("on|off");
  add_deprecated(cache, "--set", options->set_cache, "--state (--set is a named setting NAME=VALUE elsewhere)");
  add_shared_flag(cache, "--allow-destructive", options->allow_destructive,
                  "Consent to changing the device (the safety gate still refuses devices in use)");
  add_shared_flag(cache, "--json", options->json, "Print the state(s) as JSON");
  cache->callback([&slot, options] {
    slot.action = [options] {
      (void)resolve_target_option(options->target);
      return run_write_cache(*options);
    };
  });

  CLI::App* platform = device->add_subcommand("platform", "The test platform: CPU, memory, OS, PCIe link (read-only)");
  platform->add_option("target", options->target, "Block device whose PCIe link, scheduler and NUMA node to show")
      ->check(paths::target_read());
  add_shared_flag(platform, "--json", options->json, "Print the platform record as JSON");
  platform->callback([&slot, options] {
    slot.action = [options] {
      (void)resolve_target_option(options->target);
      return run_platform(*options);
    };
  });
}

}  // namespace ptsuite::cli
