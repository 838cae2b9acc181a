// Contract: a health snapshot of the device, taken per PTS round, and a throttling monitor
// over successive snapshots.
//
// Sources (all read-only): NVMe SMART / Health Information log 02h (Base Spec 2.0 Get Log Page, SMART / Health
// Information log) with thresholds from Identify Controller WCTEMP/CCTEMP; ATA SMART READ DATA attributes (194
// temperature, 187 reported uncorrectable), SMART RETURN STATUS and the Device Statistics log 04h (page 05h temperature
// + specified maximum, page 07h percentage used) (ACS-3); SCSI LOG SENSE temperature 0Dh, solid state media 11h, read
// error counters 03h, informational exceptions 2Fh (SPC-4/SBC-3). Whatever the device does not report stays nullopt
// (null in JSON). Loop devices, zram, files: source "none".
//
// read_health() never throws for device-side failures (they become `note`); it throws only
// for a path that cannot be opened. ThrottleMonitor is a plain value type, one per run.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/passthrough.hpp>

namespace ptsuite::device {

struct HealthSnapshot {
  std::string taken_utc;
  std::string source;  // "nvme-smart-log", "ata-smart", "scsi-log-pages", "none"
  std::optional<double> temperature_celsius;
  std::optional<double> warning_threshold_celsius;   // NVMe WCTEMP, ATA specified max, SCSI reference
  std::optional<double> critical_threshold_celsius;  // NVMe CCTEMP
  std::optional<uint32_t> critical_warning;          // NVMe byte 0; ATA/SCSI: 1 when failure predicted
  std::vector<std::string> critical_warning_flags;
  std::optional<uint32_t> percentage_used;
  std::optional<uint64_t> media_errors;
  std::optional<uint32_t> available_spare_percent;
  std::optional<uint64_t> power_on_hours;
  std::optional<uint32_t> warning_temperature_minutes;  // NVMe: time above WCTEMP
  std::optional<uint32_t> thermal_transitions;          // NVMe: TMT1 + TMT2 transition counts
  std::string note;

  // Kelvin from Celsius (NVMe reports Kelvin; 273.15 offset).
  [[nodiscard]] std::optional<double> temperature_kelvin() const {
    return temperature_celsius ? std::optional<double>(*temperature_celsius + 273.15) : std::nullopt;
  }
};

HealthSnapshot read_health(Passthrough& channel, const DeviceIdentity& id);
HealthSnapshot read_health(const std::string& path, const DeviceIdentity& id);

// Flags throttling risk across a run's snapshots: temperature at or above the warning
// threshold, the NVMe temperature critical-warning bit, or a rise in the NVMe time-above-
// warning counter or thermal-management transition counts between snapshots.
class ThrottleMonitor {
 public:
  // Returns true when this snapshot shows throttling (and records why).
  bool observe(const HealthSnapshot& snapshot);
  [[nodiscard]] bool throttled() const { return m_throttled; }
  [[nodiscard]] const std::vector<std::string>& events() const { return m_events; }
  [[nodiscard]] std::optional<double> max_temperature_celsius() const { return m_max_celsius; }
  [[nodiscard]] size_t snapshots() const { return m_count; }

 private:
  bool m_throttled = false;
  std::vector<std::string> m_events;
  std::optional<double> m_max_celsius;
  std::optional<uint32_t> m_last_warning_minutes;
  std::optional<uint32_t> m_last_transitions;
  size_t m_count = 0;
};

void to_json(nlohmann::json& j, const HealthSnapshot& s);
void to_json(nlohmann::json& j, const ThrottleMonitor& m);

}  // namespace ptsuite::device
