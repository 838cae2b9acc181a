#include <ptsuite/report/text_report.hpp>

#include <fmt/format.h>

#include <ptsuite/util/labels.hpp>

#include <algorithm>
#include <string_view>
#include <vector>

#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/grid_matrix.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/run_sessions.hpp>
#include <ptsuite/results/segment_result.hpp>
#include <ptsuite/results/setting_text.hpp>
#include <ptsuite/results/test_kinds.hpp>
#include <ptsuite/results/throughput_table.hpp>
#include <ptsuite/results/write_stream.hpp>

#include <ptsuite/report/window_labels.hpp>

#include "report/results_read.hpp"
#include "report/sections.hpp"
#include "report/settings_in_use.hpp"
#include "report/text_table.hpp"

namespace ptsuite::report {

using nlohmann::json;

using text::fixed;
using text::gigabytes;
using text::integer;
using text::ms;
using text::seconds;
using text::Table;

namespace {

// --- sections -----------------------------------------------------------------------------

std::string verdict_lines(const results::ComplianceRecord* verdict, std::string_view indent) {
  if (verdict == nullptr) {
    return fmt::format("{}Compliance: not evaluated\n", indent);
  }
  std::string out = fmt::format("{}Compliance: {}\n", indent, verdict->summary);
  for (const std::string& reason : verdict->reasons) {
    out += fmt::format("{}  - {}\n", indent, reason);
  }
  for (const std::string& note : verdict->notes) {
    out += fmt::format("{}  ! {}\n", indent, note);
  }
  return out;
}

std::string or_else(const std::string& v, const std::string& fallback) { return v.empty() ? fallback : v; }

// The device, target, tester and signature lines.
std::string identity_lines(const results::RunHeader& h) {
  std::string out;
  const results::DeviceRecord& dev = h.device;
  std::string name;
  for (const std::string* v : {&dev.vendor, &dev.model}) {
    if (!v->empty()) {
      name += (name.empty() ? "" : " ") + *v;
    }
  }
  std::string ids;
  if (!dev.serial.empty()) {
    ids += ", serial " + dev.serial;
  } else if (!dev.asset_serial.empty()) {
    ids += ", asset serial " + dev.asset_serial + " (the device reports none)";
  }
  if (!dev.firmware.empty()) {
    ids += ", firmware " + dev.firmware;
  }
  out += fmt::format("Device:      {}{}\n", name.empty() ? "unknown device" : name, ids);
  const results::TargetRecord& target = h.target;
  out += fmt::format("Target:      {} ({}, {} bytes, {}-byte logical blocks{})\n", target.path,
                     gigabytes(target.capacity_bytes), target.capacity_bytes, target.logical_block_bytes,
                     target.scratch.empty() ? "" : "; scratch: " + target.scratch);
  if (!h.config.tested_by.empty()) {
    out += fmt::format("Tested by:   {}\n", h.config.tested_by);
  }
  if (!h.run.run_uid.empty()) {
    out +=
        fmt::format("Run id:      {}{}\n", h.run.run_uid, h.run.host.empty() ? "" : " (started on " + h.run.host + ")");
  }
  if (!h.config.labels.empty()) {
    out += fmt::format("Labels:      {}\n", labels_text(h.config.labels));
  }
  if (h.attestation) {
    const results::AttestationRecord& a = *h.attestation;
    out += fmt::format("Signed:      Ed25519 key {} on {}{} (check: ptsuite verify DIR --pubkey KEY.pub)\n",
                       a.key_fingerprint, a.signed_utc, a.tested_by.empty() ? "" : " for " + a.tested_by);
  }
  for (const results::PreflightSession& session : h.preflight) {
    for (const results::PreflightFinding& f : session.findings) {
      if (f.severity != "info") {
        out += fmt::format("Preflight:   {} ({}): {}: {}\n", f.severity, session.session, f.check, f.message);
      }
    }
  }
  return out;
}

// The settings changed from the spec defaults that concern the tests that ran.
std::string settings_lines(const results::RunDocument& doc) {
  std::vector<std::string> changed;
  const std::unordered_set<std::string> in_use = settings_in_use(doc);
  for (const results::SettingRecord& s : doc.header.settings) {
    if (s.changed && in_use.count(s.name) > 0) {
      changed.push_back(fmt::format("{} = {} ({})", s.name, results::setting_value_text(s), s.changed_by));
    }
  }
  std::string presets;
  for (const std::string& p : doc.header.config.presets) {
    presets += (presets.empty() ? "" : ", ") + p;
  }
  if (changed.empty()) {
    return "Settings:    spec defaults\n";
  }
  std::string out = fmt::format("Settings:    {} changed from the spec defaults{}\n", changed.size(),
                                presets.empty() ? "" : " (preset " + presets + ")");
  for (const std::string& c : changed) {
    out += "               " + c + "\n";
  }
  return out;
}

std::string run_section(const results::RunDocument& doc) {
  const results::RunHeader& h = doc.header;
  std::string out = h.simulation ? results::simulation_banner(*h.simulation) + "\n" : "";
  out += fmt::format("ptsuite results: {}, {}\n", or_else(h.spec.title, "PTS " + h.spec.revision),
                     or_else(h.spec.profile_title, h.spec.profile));
  out += identity_lines(h);
  const results::RunRecord& run = h.run;
  out += fmt::format("Run:         {}, {} to {}; ptsuite {} ({})\n", or_else(run.status, "unknown"),
                     run.sessions.started_utc, or_else(run.finished_utc, "-"), h.tool.version, h.tool.git_revision);
  if (run.stop_reason) {
    out += fmt::format("Stopped:     {}\n", *run.stop_reason);
  }
  for (const results::ResumeRecord& r : run.sessions.resumes) {
    out += fmt::format("Resumed:     {} after {} journaled steps{}\n", r.utc, r.journaled_steps,
                       r.after_host_restart ? ", after a host restart (reboot or power loss): the drive's state "
                                              "after a power cut is not the state the journal saw"
                                            : "");
  }
  out += settings_lines(doc);
  out += verdict_lines(doc.has_compliance ? &doc.compliance : nullptr, "");
  return out;
}

std::string steady_state_lines(const results::RoundPhase& phase) {
  const results::PhaseSteadyState& ss = phase.steady_state;
  const results::MeasurementWindow& window = phase.measurement_window;
  std::string out;
  if (!ss.stop_at_steady_state) {
    out +=
        fmt::format("  {}: a fixed {} Rounds ({}), not a steady-state phase; window Rounds {}-{} shown, not judged\n",
                    phase.phase, ss.rounds_run, ss.round_cap_setting, window.first_round, window.last_round);
  } else if (ss.attained) {
    out += fmt::format("  Steady state ({}): attained in Rounds {}-{} ({} Rounds run, max {})\n", phase.phase,
                       window.first_round, window.last_round, ss.rounds_run, ss.max_rounds);
  } else {
    out += fmt::format("  Steady state ({}): NOT ACHIEVED after {} Rounds (max {}); reported window Rounds {}-{}\n",
                       phase.phase, ss.rounds_run, ss.max_rounds, window.first_round, window.last_round);
  }
  const std::vector<results::SteadyStateVerdictRecord>& variables = ss.verdicts.variables;
  if (variables.empty()) {
    return out;
  }
  Table t(1);
  t.add({"tracking variable", "average", "data excursion", "allowed", "slope excursion", "allowed", "fit", "verdict"});
  for (size_t i = 0; i < variables.size(); ++i) {
    const results::SteadyStateVerdictRecord& v = variables[i];
    const std::string unit = i < phase.tracking.size() ? phase.tracking[i].unit : "";
    const int decimals = unit == "ns" ? 0 : unit == "MB/s" ? 2 : 1;
    t.add({v.tracking_variable, fixed(v.average, decimals) + " " + unit, fixed(v.data_excursion.measured, decimals),
           fixed(v.data_excursion.allowed, decimals), fixed(v.slope_excursion.measured, decimals),
           fixed(v.slope_excursion.allowed, decimals), v.fit_formula,
           !ss.stop_at_steady_state ? (v.attained ? "(attained)" : "(not attained)")
           : v.attained             ? "attained"
                                    : "NOT ATTAINED"});
  }
  out += t.render("    ");
  return out;
}

// One metric of a grid matrix as a table: block sizes down, R/W mixes across.
std::string matrix_table(const results::GridMatrix& matrix, results::GridMetric metric, int decimals) {
  Table t(1);
  std::vector<std::string> head{"Block size"};
  for (const results::RwMix& mix : matrix.columns) {
    head.push_back(mix.label);
  }
  t.add(head);
  for (size_t r = 0; r < matrix.rows.size(); ++r) {
    std::vector<std::string> line{matrix.rows[r].label};
    for (size_t c = 0; c < matrix.columns.size(); ++c) {
      line.push_back(fixed(matrix.cell(metric, r, c), decimals));
    }
    t.add(line);
  }
  return t.render("    ");
}

std::string window_range(const results::GridMatrix& matrix) {
  return fmt::format("Rounds {}-{}", matrix.window.first_round, matrix.window.last_round);
}

}  // namespace

std::string iops_text(const results::TestRecord& test) {
  const results::GridMatrix* block = test.block_as<results::GridMatrix>();
  if (block == nullptr) {
    return {};
  }
  const results::GridMatrix& matrix = *block;
  return fmt::format("  IOPS, measurement-window average ({}), R/W mix across:\n", window_range(matrix)) +
         matrix_table(matrix, results::GridMetric::iops, 0);
}

std::string latency_text(const results::TestRecord& test) {
  const results::GridMatrix* block = test.block_as<results::GridMatrix>();
  if (block == nullptr) {
    return {};
  }
  using results::GridMetric;
  const results::GridMatrix& matrix = *block;
  const WindowLabels labels = window_labels(test.header);
  // Round-mean MRT: the 5 9s may exceed it; the window's exact maximum beside it says why.
  const bool with_max = labels.show_max && !matrix.grid(GridMetric::latency_window_max_ns).empty();
  std::string out = fmt::format("  Response times over the measurement window ({}): ART {}; MRT {}; 99.999 % a {}{}:\n",
                                window_range(matrix), labels.art, labels.mrt, labels.nines,
                                with_max ? "; Max the " + labels.max : std::string());
  Table t(2);
  std::vector<std::string> head{"R/W mix", "Block size", "IOPS", "ART (ms)", "99.999 % (ms)", "MRT (ms)"};
  if (with_max) head.emplace_back("Max (ms)");
  t.add(head);
  for (size_t c = 0; c < matrix.columns.size(); ++c) {
    for (size_t r = 0; r < matrix.rows.size(); ++r) {
      std::vector<std::string> row{matrix.columns[c].label,
                                   matrix.rows[r].label,
                                   integer(matrix.cell(GridMetric::iops, r, c)),
                                   ms(matrix.cell(GridMetric::latency_mean_ns, r, c)),
                                   ms(matrix.cell(GridMetric::latency_p99_999_ns, r, c)),
                                   ms(matrix.cell(GridMetric::latency_max_ns, r, c))};
      if (with_max) row.push_back(ms(matrix.cell(GridMetric::latency_window_max_ns, r, c)));
      t.add(row);
    }
  }
  return out + t.render("    ");
}

std::string throughput_text(const results::TestRecord& test) {
  const results::ThroughputTable* table = test.block_as<results::ThroughputTable>();
  if (table == nullptr || table->rows.empty()) {
    return {};
  }
  Table t(1);
  t.add({"Block size", "Read MB/s", "Write MB/s"});
  for (const results::ThroughputRow& row : table->rows) {
    t.add({row.block_size, fixed(row.read_mb_per_s, 1), fixed(row.write_mb_per_s, 1)});
  }
  return "  Throughput, measurement-window average (MB = 10^6 bytes):\n" + t.render("    ");
}

// WSAT and endurance-write (titled `name`); `qos` adds the 99 / 99.9 / 99.99 % columns the
// endurance write reports per sample.
std::string write_stream_text(const results::TestRecord& test, const std::string& name, bool qos) {
  const results::WriteStreamBlock* block = test.block_as<results::WriteStreamBlock>();
  if (block == nullptr) {
    return {};
  }
  const results::WriteStreamBlock& w = *block;
  const std::vector<results::WriteStreamSample>& samples = w.samples;
  const std::string& stop = w.stop_reason;
  std::string out =
      fmt::format("  {} workload {} ({}): {} samples, stopped by {}\n", name, w.workload,
                  results::read_segment_spec(w.segment).label, samples.size(),
                  stop == "capacity"       ? "the capacity multiple written (" + gigabytes(w.target_bytes) + ")"
                  : stop == "steady_state" ? "steady state of the check samples (wsat.stop_rule=steady-state)"
                  : stop == "round_cap"    ? "the Round cap without steady state (SS NOT ACHIEVED)"
                  : stop == "time_limit"   ? "the time limit"
                  : stop.empty()           ? "-"
                                           : stop);
  if (samples.empty()) {
    return out;
  }
  Table t(1);
  std::vector<std::string> head = {"sample", "time (s)", "IOPS", "TGBW (GB)", "drive fills", "ART (ms)"};
  if (qos) head.insert(head.end(), {"99 % (ms)", "99.9 % (ms)", "99.99 % (ms)"});
  head.insert(head.end(), {"99.999 % (ms)", "MRT (ms)"});
  t.add(head);
  const auto ns = [](uint64_t v) { return ms(static_cast<double>(v)); };
  for (const results::WriteStreamSample* s : {&samples.front(), &samples.back()}) {
    std::vector<std::string> row = {(s == &samples.front() ? "first #" : "final #") + std::to_string(s->sample),
                                    seconds(s->end_time_s),
                                    integer(s->iops),
                                    fixed(s->tgbw_gb, 1),
                                    fixed(s->drive_fills, 2),
                                    ms(s->latency.latency_mean_ns)};
    if (qos) {
      row.insert(row.end(),
                 {ns(s->latency.latency_p99_ns), ns(s->latency.latency_p99_9_ns), ns(s->latency.latency_p99_99_ns)});
    }
    row.insert(row.end(), {ns(s->latency.latency_p99_999_ns), ns(s->latency.latency_max_ns)});
    t.add(row);
  }
  out += t.render("    ");
  out += fmt::format("    Final IOPS {}, TGBW {} ({} bytes written)\n", integer(samples.back().iops),
                     gigabytes(w.written_bytes), w.written_bytes);
  return out;
}

std::string wsat_text(const results::TestRecord& test) { return write_stream_text(test, "WSAT", false); }
std::string endurance_write_text(const results::TestRecord& test) {
  return write_stream_text(test, "Endurance write", true);
}

namespace {

// CBW, DIRTH and ECW (the same procedure over one access pattern), titled `title`.
std::string demand_sweep_text(const results::TestRecord& test, const char* title) {
  const results::DemandSweepBlock* block = test.block_as<results::DemandSweepBlock>();
  if (block == nullptr) {
    return {};
  }
  const results::DemandSweepBlock& c = *block;
  std::string out =
      fmt::format("  {} operating points (R/W mix {}, from the {}; MaxIOPS ART ceiling {} ms):\n", title, c.rw_mix,
                  c.operating_point_source == "window-average"
                      ? "measurement-window averages; ART " + window_labels(test.header).art
                      : "final Round",
                  ms(static_cast<double>(c.art_ceiling_ns)));
  Table t(1, /*last_left=*/true);
  t.add({"point", "TC", "QD", "IOPS", "ART (ms)", "rule"});
  for (const results::OperatingPoint& p : c.operating_points) {
    t.add({p.name == "max"   ? "MaxIOPS"
           : p.name == "mid" ? "MidIOPS"
           : p.name == "min" ? "MinIOPS"
                             : p.name,
           std::to_string(p.threads), std::to_string(p.queue_depth), integer(p.iops), ms(p.latency_mean_ns), p.rule});
  }
  return out + t.render("    ");
}

}  // namespace

std::string cbw_text(const results::TestRecord& test) { return demand_sweep_text(test, "CBW"); }
std::string dirth_text(const results::TestRecord& test) { return demand_sweep_text(test, "DIRTH"); }
std::string ecw_text(const results::TestRecord& test) { return demand_sweep_text(test, "ECW"); }
std::string rww_sweep_demand_text(const results::TestRecord& test) { return demand_sweep_text(test, "RWW SWEEP"); }

namespace {

// Each capture's spec and result through the segment view (results/segment_result.hpp).
std::string captures_section(const std::vector<results::CaptureRecord>& captures) {
  if (captures.empty()) {
    return {};
  }
  Table t(2);
  t.add({"capture", "segment", "TC", "QD", "IOPS", "ART (ms)", "99.99 % (ms)", "99.999 % (ms)", "MRT (ms)"});
  for (const results::CaptureRecord& cap : captures) {
    const results::SegmentSpecRecord spec = results::read_segment_spec(cap.spec);
    const results::DirectionSummary combined =
        results::read_segment_result(cap.result).summary.combined.value_or(results::DirectionSummary{});
    const results::LatencySummary& lat = combined.latency;
    const auto count_text = [](const std::optional<uint32_t>& n) { return n ? std::to_string(*n) : std::string(); };
    t.add({cap.name, cap.label, count_text(spec.threads), count_text(spec.queue_depth), integer(combined.iops),
           ms(lat.mean_ns), ms(lat.percentile_ns("99.99")), ms(lat.percentile_ns("99.999")),
           ms(results::or_nan(lat.max_ns))});
  }
  return "  Response-time captures (read and write combined):\n" + t.render("    ");
}

std::string test_section(const results::TestRecord& test) {
  const results::TestHeader& h = test.header;
  const std::string& id = h.id;
  const std::string section = results::str(h.section.value);
  const std::string where =
      section == "-" ? "not a PTS test" : fmt::format("PTS {} section {}", h.spec_revision, section);
  std::string out = fmt::format("\n== {} ({}, {}) ==\n", or_else(h.title, id), id, where);
  out += fmt::format("  {}; ActiveRange {} %; write cache required: {}; status {}\n",
                     h.toio ? fmt::format("TC {} / QD {}", h.toio->threads, h.toio->queue_depth)
                            : std::string(id == results::test_kind::claims::id ? "TC / QD per claim" : "TC x QD grid"),
                     fixed(h.active_range_pct, 0), results::str(h.write_cache_required.value), or_else(h.status, "-"));
  for (const results::OmittedEntry& o : h.omitted) {
    out += fmt::format("  Omitted: {} ({})\n", o.what, o.reason);
  }
  for (const results::RoundPhase& phase : test.phases) {
    out += steady_state_lines(phase);
  }
  const TestSections* sections = find_sections(id);
  if (sections != nullptr && sections->text_section != nullptr) {
    out += sections->text_section(test);
  }
  out += captures_section(test.captures);
  out += verdict_lines(test.has_compliance ? &test.compliance : nullptr, "  ");
  return out;
}

}  // namespace

std::string render_text(const results::RunDocument& doc) {
  std::string out = run_section(doc);
  for (const results::TestRecord& test : doc.tests) {
    out += test_section(test);
  }
  return out;
}

}  // namespace ptsuite::report
