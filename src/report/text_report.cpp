#include <ptsuite/report/text_report.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/grid_matrix.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/run_sessions.hpp>
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
using text::percentile;
using text::seconds;
using text::Table;

namespace {

// --- sections -----------------------------------------------------------------------------

std::string verdict_lines(const json& compliance, std::string_view indent) {
  if (!compliance.is_object()) {
    return fmt::format("{}Compliance: not evaluated\n", indent);
  }
  const results::ComplianceRecord verdict = results::read_compliance(compliance);
  std::string out = fmt::format("{}Compliance: {}\n", indent, verdict.summary);
  for (const std::string& reason : verdict.reasons) {
    out += fmt::format("{}  - {}\n", indent, reason);
  }
  for (const std::string& note : verdict.notes) {
    out += fmt::format("{}  ! {}\n", indent, note);
  }
  return out;
}

std::string run_section(const json& doc) {
  std::string out;
  const json& spec = member(doc, "spec");
  out += fmt::format("ptsuite results: {}, {}\n",
                     str(spec, "title").empty() ? "PTS " + str(spec, "revision") : str(spec, "title"),
                     str(spec, "profile_title").empty() ? str(spec, "profile") : str(spec, "profile_title"));
  const json& dev = member(doc, "device");
  std::string name;
  for (const char* key : {"vendor", "model"}) {
    const std::string v = str(dev, key);
    if (!v.empty()) {
      name += (name.empty() ? "" : " ") + v;
    }
  }
  std::string ids;
  if (!str(dev, "serial").empty()) {
    ids += ", serial " + str(dev, "serial");
  }
  if (!str(dev, "firmware").empty()) {
    ids += ", firmware " + str(dev, "firmware");
  }
  out += fmt::format("Device:      {}{}\n", name.empty() ? "unknown device" : name, ids);
  const json& target = member(doc, "target");
  out += fmt::format("Target:      {} ({}, {} bytes, {}-byte logical blocks{})\n", str(target, "path"),
                     gigabytes(member(target, "capacity_bytes")), str(target, "capacity_bytes"),
                     str(target, "logical_block_bytes"),
                     member(target, "scratch").is_string() ? "; scratch: " + str(target, "scratch") : "");
  const json& config = member(doc, "config");
  if (!str(config, "tested_by").empty()) {
    out += fmt::format("Tested by:   {}\n", str(config, "tested_by"));
  }
  const json& attestation = member(doc, "attestation");
  if (attestation.is_object()) {
    out += fmt::format("Signed:      Ed25519 key {} on {}{} (check: ptsuite verify DIR --pubkey KEY.pub)\n",
                       str(attestation, "key_fingerprint"), str(attestation, "signed_utc"),
                       str(attestation, "tested_by").empty() ? "" : " for " + str(attestation, "tested_by"));
  }
  for (const json& session : array(doc, "preflight")) {
    for (const json& f : array(session, "findings")) {
      if (str(f, "severity") != "info") {
        out += fmt::format("Preflight:   {} ({}): {}: {}\n", str(f, "severity"), str(session, "session"),
                           str(f, "check"), str(f, "message"));
      }
    }
  }
  const json& run = member(doc, "run");
  const json& tool = member(doc, "tool");
  out += fmt::format("Run:         {}, {} to {}; ptsuite {} ({})\n",
                     str(run, "status").empty() ? "unknown" : str(run, "status"), str(run, "started_utc"),
                     str(run, "finished_utc").empty() ? "-" : str(run, "finished_utc"), str(tool, "version"),
                     str(tool, "git_revision"));
  if (member(run, "stop").is_object()) {
    out += fmt::format("Stopped:     {}\n", str(member(run, "stop"), "reason"));
  }
  for (const results::ResumeRecord& r : results::read_run_sessions(run).resumes) {
    out += fmt::format("Resumed:     {} after {} journaled steps{}\n", r.utc, r.journaled_steps,
                       r.after_host_restart ? ", after a host restart (reboot or power loss): the drive's state "
                                              "after a power cut is not the state the journal saw"
                                            : "");
  }
  std::vector<std::string> changed;
  const std::unordered_set<std::string> in_use = settings_in_use(doc);
  for (const json& s : array(doc, "settings")) {
    if (member(s, "changed") == true && in_use.count(str(s, "name")) > 0) {
      const json& v = member(s, "value");
      changed.push_back(fmt::format("{} = {} ({})", str(s, "name"), v.is_string() ? v.get<std::string>() : v.dump(),
                                    str(s, "changed_by")));
    }
  }
  std::string presets;
  for (const json& p : array(config, "presets")) {
    presets += (presets.empty() ? "" : ", ") + (p.is_string() ? p.get<std::string>() : p.dump());
  }
  if (changed.empty()) {
    out += "Settings:    spec defaults\n";
  } else {
    out += fmt::format("Settings:    {} changed from the spec defaults{}\n", changed.size(),
                       presets.empty() ? "" : " (preset " + presets + ")");
    for (const std::string& c : changed) {
      out += "               " + c + "\n";
    }
  }
  out += verdict_lines(member(doc, "compliance"), "");
  return out;
}

std::string steady_state_lines(const results::RoundPhase& phase) {
  const results::PhaseSteadyState& ss = phase.steady_state;
  const results::MeasurementWindow& window = phase.measurement_window;
  std::string out;
  if (ss.attained) {
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
           fixed(v.slope_excursion.allowed, decimals), v.fit_formula, v.attained ? "attained" : "NOT ATTAINED"});
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

std::string iops_text(const json& test) {
  if (!member(test, "matrix").is_object()) {
    return {};
  }
  const results::GridMatrix matrix = results::read_grid_matrix(member(test, "matrix"));
  return fmt::format("  IOPS, measurement-window average ({}), R/W mix across:\n", window_range(matrix)) +
         matrix_table(matrix, results::GridMetric::iops, 0);
}

std::string latency_text(const json& test) {
  if (!member(test, "matrix").is_object()) {
    return {};
  }
  using results::GridMetric;
  const results::GridMatrix matrix = results::read_grid_matrix(member(test, "matrix"));
  const WindowLabels labels = window_labels(test);
  std::string out = fmt::format("  Response times over the measurement window ({}): ART {}; MRT {}; 99.999 % a {}:\n",
                                window_range(matrix), labels.art, labels.mrt, labels.nines);
  Table t(2);
  t.add({"R/W mix", "Block size", "IOPS", "ART (ms)", "99.999 % (ms)", "MRT (ms)"});
  for (size_t c = 0; c < matrix.columns.size(); ++c) {
    for (size_t r = 0; r < matrix.rows.size(); ++r) {
      t.add({matrix.columns[c].label, matrix.rows[r].label, integer(matrix.cell(GridMetric::iops, r, c)),
             ms(matrix.cell(GridMetric::latency_mean_ns, r, c)), ms(matrix.cell(GridMetric::latency_p99_999_ns, r, c)),
             ms(matrix.cell(GridMetric::latency_max_ns, r, c))});
    }
  }
  return out + t.render("    ");
}

std::string throughput_text(const json& test) {
  const std::vector<results::ThroughputRow> table = results::read_throughput_table(member(test, "table"));
  if (table.empty()) {
    return {};
  }
  Table t(1);
  t.add({"Block size", "Read MB/s", "Write MB/s"});
  for (const results::ThroughputRow& row : table) {
    t.add({row.block_size, fixed(row.read_mb_per_s, 1), fixed(row.write_mb_per_s, 1)});
  }
  return "  Throughput, measurement-window average (MB = 10^6 bytes):\n" + t.render("    ");
}

// WSAT and endurance-write (record `key`, titled `name`); `qos` adds the 99 / 99.9 / 99.99 %
// columns the endurance write reports per sample.
std::string write_stream_text(const json& test, const std::string& key, const std::string& name, bool qos) {
  if (!member(test, key).is_object()) {
    return {};
  }
  const results::WriteStreamBlock w = results::read_write_stream(member(test, key));
  const std::vector<results::WriteStreamSample>& samples = w.samples;
  const std::string& stop = w.stop_reason;
  std::string out =
      fmt::format("  {} workload {} ({}): {} samples, stopped by {}\n", name, w.workload, str(w.segment.get(), "label"),
                  samples.size(),
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

std::string wsat_text(const json& test) { return write_stream_text(test, "wsat", "WSAT", false); }
std::string endurance_text(const json& test) { return write_stream_text(test, "endurance", "Endurance write", true); }

namespace {

// CBW and DIRTH (the same procedure over one access pattern): the record's block `key`.
std::string demand_sweep_text(const json& test, const char* key, const char* title) {
  if (!member(test, key).is_object()) {
    return {};
  }
  const results::DemandSweepBlock c = results::read_demand_sweep(member(test, key));
  std::string out = fmt::format(
      "  {} operating points (R/W mix {}, from the {}; MaxIOPS ART ceiling {} ms):\n", title, c.rw_mix,
      c.operating_point_source == "window-average" ? "measurement-window averages; ART " + window_labels(test).art
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

std::string cbw_text(const json& test) { return demand_sweep_text(test, "cbw", "CBW"); }
std::string dirth_text(const json& test) { return demand_sweep_text(test, "dirth", "DIRTH"); }
std::string ecw_text(const json& test) { return demand_sweep_text(test, "ecw", "ECW"); }
std::string rww_sweep_demand_text(const json& test) { return demand_sweep_text(test, "rww_sweep", "RWW SWEEP"); }

namespace {

std::string captures_section(const json& test) {
  const std::vector<results::CaptureRecord> captures = results::read_captures(member(test, "captures"));
  if (captures.empty()) {
    return {};
  }
  Table t(2);
  t.add({"capture", "segment", "TC", "QD", "IOPS", "ART (ms)", "99.99 % (ms)", "99.999 % (ms)", "MRT (ms)"});
  for (const results::CaptureRecord& cap : captures) {
    const json& combined = member(member(cap.result.get(), "summary"), "combined");
    const json& spec = cap.spec.get();
    t.add({cap.name, cap.label, str(spec, "threads"), str(spec, "queue_depth"), integer(member(combined, "iops")),
           ms(member(member(combined, "latency_ns"), "mean")), ms(percentile(combined, "99.99")),
           ms(percentile(combined, "99.999")), ms(member(member(combined, "latency_ns"), "max"))});
  }
  return "  Response-time captures (read and write combined):\n" + t.render("    ");
}

std::string test_section(const json& test) {
  const std::string id = str(test, "id");
  std::string out;
  const json& section = member(test, "section");
  const std::string title = str(test, "title").empty() ? id : str(test, "title");
  const std::string where = str(section, "value") == "-"
                                ? "not a PTS test"
                                : fmt::format("PTS {} section {}", str(test, "spec_revision"), str(section, "value"));
  out += fmt::format("\n== {} ({}, {}) ==\n", title, id, where);
  const json& toio = member(test, "toio");
  out += fmt::format("  {}; ActiveRange {} %; write cache required: {}; status {}\n",
                     toio.is_object() ? fmt::format("TC {} / QD {}", str(toio, "threads"), str(toio, "queue_depth"))
                                      : std::string(id == "claims" ? "TC / QD per claim" : "TC x QD grid"),
                     fixed(member(test, "active_range_pct"), 0), str(member(test, "write_cache_required"), "value"),
                     str(test, "status").empty() ? "-" : str(test, "status"));
  for (const json& o : array(test, "omitted")) {
    out += fmt::format("  Omitted: {} ({})\n", str(o, "what"), str(o, "reason"));
  }
  for (const results::RoundPhase& phase : results::read_round_phases(member(test, "phases"))) {
    out += steady_state_lines(phase);
  }
  const TestSections* sections = find_sections(id);
  if (sections != nullptr && sections->text_section != nullptr) {
    out += sections->text_section(test);
  }
  out += captures_section(test);
  out += verdict_lines(member(test, "compliance"), "  ");
  return out;
}

}  // namespace

std::string render_text(const json& results) {
  std::string out = run_section(results);
  for (const json& test : array(results, "tests")) {
    out += test_section(test);
  }
  return out;
}

}  // namespace ptsuite::report
