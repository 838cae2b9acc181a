#include <ptsuite/device/health.hpp>

#include <fmt/format.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include <ptsuite/device/ata.hpp>
#include <ptsuite/device/nvme.hpp>
#include <ptsuite/device/scsi.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::device {

namespace {

constexpr double k_kelvin_offset = 273.15;

double celsius_from_kelvin(uint32_t k) { return static_cast<double>(k) - k_kelvin_offset; }

void read_nvme(Passthrough& ch, const DeviceIdentity& id, HealthSnapshot& s) {
  s.source = "nvme-smart-log";
  auto cmd = nvme::get_log_page(nvme::k_log_smart, nvme::k_nsid_all, 512);
  const auto done = ch.nvme_admin(cmd);
  if (!done.ok()) {
    s.note = done.os_error ? fmt::format("SMART log failed: {}", std::strerror(done.os_error))
                           : "SMART log failed: " + describe_nvme_status(done.status);
    return;
  }
  const auto log = nvme::parse_smart_log(cmd.data);
  if (log.composite_temperature_kelvin != 0)
    s.temperature_celsius = celsius_from_kelvin(log.composite_temperature_kelvin);
  if (id.warning_temperature_kelvin) s.warning_threshold_celsius = celsius_from_kelvin(*id.warning_temperature_kelvin);
  if (id.critical_temperature_kelvin)
    s.critical_threshold_celsius = celsius_from_kelvin(*id.critical_temperature_kelvin);
  s.critical_warning = log.critical_warning;
  s.critical_warning_flags = nvme::critical_warning_flags(log.critical_warning);
  s.percentage_used = log.percentage_used;
  s.media_errors = log.media_errors;
  s.available_spare_percent = log.available_spare_percent;
  s.power_on_hours = log.power_on_hours;
  s.warning_temperature_minutes = log.warning_temperature_minutes;
  s.thermal_transitions = log.thermal_transitions_1 + log.thermal_transitions_2;
}

std::optional<std::vector<uint8_t>> ata_read(Passthrough& ch, ScsiCommand cmd, ata::Result* result = nullptr) {
  const auto r = ata::decode_result(ch.scsi(cmd));
  if (result != nullptr) *result = r;
  if (!r.ok()) return std::nullopt;
  return cmd.data;
}

void read_ata(Passthrough& ch, HealthSnapshot& s) {
  s.source = "ata-smart";
  std::vector<std::string> missing;
  if (const auto data = ata_read(ch, ata::smart_read_data())) {
    // Temperature: attribute 194 (Temperature_Celsius) where present, else 190
    // (Airflow_Temperature_Cel, the only one some drives and QEMU's IDE model report); the raw
    // value's low byte is the current degrees C in both.
    std::optional<double> airflow_celsius;
    for (const auto& a : ata::parse_smart_attributes(*data)) {
      if (a.id == 194) s.temperature_celsius = static_cast<double>(a.raw & 0xff);
      if (a.id == 190) airflow_celsius = static_cast<double>(a.raw & 0xff);
      if (a.id == 187) s.media_errors = a.raw;  // reported uncorrectable
      if (a.id == 9) s.power_on_hours = a.raw & 0xffffffff;
    }
    if (!s.temperature_celsius) s.temperature_celsius = airflow_celsius;
  } else {
    missing.push_back("SMART READ DATA");
  }
  ata::Result status;
  if (ata_read(ch, ata::smart_return_status(), &status); status.ok()) {
    if (const auto exceeded = ata::smart_threshold_exceeded(status)) {
      s.critical_warning = *exceeded ? 1u : 0u;
      if (*exceeded) s.critical_warning_flags.push_back("smart_threshold_exceeded");
    }
  }
  // Device Statistics log 04h (ACS-3): page 05h temperature, page 07h SSD statistics.
  if (const auto page = ata_read(ch, ata::read_log_ext(0x04, 0x05))) {
    if (const auto t = ata::device_statistic(*page, 0x08, true); t.valid)
      s.temperature_celsius = static_cast<double>(t.value);
    if (const auto m = ata::device_statistic(*page, 0x58, true); m.valid) {
      s.warning_threshold_celsius = static_cast<double>(m.value);  // specified maximum operating temperature
    }
  }
  if (const auto page = ata_read(ch, ata::read_log_ext(0x04, 0x07))) {
    if (const auto p = ata::device_statistic(*page, 0x08, false); p.valid)
      s.percentage_used = static_cast<uint32_t>(p.value & 0xff);
  }
  if (!missing.empty()) s.note = fmt::format("unavailable: {}", fmt::join(missing, ", "));
}

std::optional<std::vector<uint8_t>> scsi_read(Passthrough& ch, ScsiCommand cmd) {
  const auto r = ch.scsi(cmd);
  if (!r.good()) return std::nullopt;
  return cmd.data;
}

void read_scsi(Passthrough& ch, HealthSnapshot& s) {
  s.source = "scsi-log-pages";
  try {
    if (const auto d = scsi_read(ch, scsi::log_sense(0x0d))) {
      const auto t = scsi::parse_temperature_log(*d);
      if (t.current_celsius) s.temperature_celsius = *t.current_celsius;
      if (t.reference_celsius) s.warning_threshold_celsius = *t.reference_celsius;
    }
    if (const auto d = scsi_read(ch, scsi::log_sense(0x11))) {
      if (const auto p = scsi::parse_percentage_used(*d)) s.percentage_used = *p;
    }
    if (const auto d = scsi_read(ch, scsi::log_sense(0x03))) {
      s.media_errors = scsi::parse_uncorrected_errors(*d);
    }
    if (const auto d = scsi_read(ch, scsi::log_sense(0x2f))) {
      if (const auto ie = scsi::parse_informational_exceptions(*d)) {
        s.critical_warning = ie->asc != 0 ? 1u : 0u;
        if (ie->asc != 0)
          s.critical_warning_flags.push_back(
              fmt::format("failure_predicted_asc_{:02x}h_ascq_{:02x}h", ie->asc, ie->ascq));
        if (!s.temperature_celsius && ie->temperature_celsius) s.temperature_celsius = *ie->temperature_celsius;
      }
    }
  } catch (const Error& e) {
    s.note = e.what();
  }
  if (!s.temperature_celsius && !s.percentage_used && !s.media_errors && s.note.empty()) {
    s.note = "the device answered none of the log pages 0Dh, 11h, 03h, 2Fh";
  }
}

}  // namespace

HealthSnapshot read_health(Passthrough& ch, const DeviceIdentity& id) {
  HealthSnapshot s;
  s.taken_utc = utc_now_iso8601();
  try {
    switch (id.transport) {
      case Transport::nvme:
        read_nvme(ch, id, s);
        break;
      case Transport::ata:
        read_ata(ch, s);
        break;
      case Transport::scsi:
        read_scsi(ch, s);
        break;
      default:
        s.source = "none";
        s.note = fmt::format("no health data for a {} target", to_string(id.transport));
    }
  } catch (const Error& e) {
    s.note = e.what();
  }
  return s;
}

HealthSnapshot read_health(const std::string& path, const DeviceIdentity& id) {
  if (id.transport != Transport::nvme && id.transport != Transport::ata && id.transport != Transport::scsi) {
    HealthSnapshot s;
    s.taken_utc = utc_now_iso8601();
    s.source = "none";
    s.note = fmt::format("no health data for a {} target", to_string(id.transport));
    return s;
  }
  auto channel = open_read_only_channel(id.device_path.empty() ? path : id.device_path);
  return read_health(*channel, id);
}

bool ThrottleMonitor::observe(const HealthSnapshot& s) {
  ++m_count;
  std::vector<std::string> why;
  if (s.temperature_celsius) {
    if (!m_max_celsius || *s.temperature_celsius > *m_max_celsius) m_max_celsius = s.temperature_celsius;
    if (s.warning_threshold_celsius && *s.temperature_celsius >= *s.warning_threshold_celsius) {
      why.push_back(fmt::format("temperature {:.0f} C at or above the warning threshold {:.0f} C",
                                *s.temperature_celsius, *s.warning_threshold_celsius));
    }
  }
  if (s.critical_warning && (*s.critical_warning & 0x2) && s.source == "nvme-smart-log") {
    why.push_back("NVMe critical warning: temperature threshold");
  }
  if (s.warning_temperature_minutes) {
    if (m_last_warning_minutes && *s.warning_temperature_minutes > *m_last_warning_minutes) {
      why.push_back(fmt::format("time above the warning temperature rose by {} min",
                                *s.warning_temperature_minutes - *m_last_warning_minutes));
    }
    m_last_warning_minutes = s.warning_temperature_minutes;
  }
  if (s.thermal_transitions) {
    if (m_last_transitions && *s.thermal_transitions > *m_last_transitions) {
      why.push_back(fmt::format("{} thermal-management transitions since the last snapshot",
                                *s.thermal_transitions - *m_last_transitions));
    }
    m_last_transitions = s.thermal_transitions;
  }
  for (const auto& w : why) m_events.push_back(fmt::format("snapshot {} ({}): {}", m_count, s.taken_utc, w));
  if (!why.empty()) m_throttled = true;
  return !why.empty();
}

void to_json(nlohmann::json& j, const HealthSnapshot& s) {
  auto opt = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  j = {{"taken_utc", s.taken_utc},
       {"source", s.source},
       {"temperature_celsius", opt(s.temperature_celsius)},
       {"temperature_kelvin", opt(s.temperature_kelvin())},
       {"warning_threshold_celsius", opt(s.warning_threshold_celsius)},
       {"critical_threshold_celsius", opt(s.critical_threshold_celsius)},
       {"critical_warning", opt(s.critical_warning)},
       {"critical_warning_flags", s.critical_warning_flags},
       {"percentage_used", opt(s.percentage_used)},
       {"media_errors", opt(s.media_errors)},
       {"available_spare_percent", opt(s.available_spare_percent)},
       {"power_on_hours", opt(s.power_on_hours)},
       {"warning_temperature_minutes", opt(s.warning_temperature_minutes)},
       {"thermal_transitions", opt(s.thermal_transitions)},
       {"note", s.note}};
}

void to_json(nlohmann::json& j, const ThrottleMonitor& m) {
  j = {{"throttled", m.throttled()},
       {"snapshots", m.snapshots()},
       {"max_temperature_celsius",
        m.max_temperature_celsius() ? nlohmann::json(*m.max_temperature_celsius()) : nlohmann::json(nullptr)},
       {"events", m.events()}};
}

}  // namespace ptsuite::device
