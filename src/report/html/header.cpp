#include <ptsuite/report/html/header.hpp>

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <set>

#include <ptsuite/report/html/matrix_view.hpp>
#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/purge.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/segment_result.hpp>
#include <ptsuite/results/wipc.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::report::html {

namespace {

const std::string k_dash = "\u2013";

std::string or_dash(const std::string& s) { return s.empty() ? k_dash : s; }

// "2026-11-21T20:16:51Z" .. "2026-11-21T20:19:58Z" -> "2026-11-21 20:16:51Z – 20:19:58Z".
std::string run_dates(std::string a, std::string b) {
  for (std::string* s : {&a, &b}) {
    if (s->size() > 10 && (*s)[10] == 'T') {
      (*s)[10] = ' ';
    }
  }
  if (a.empty()) {
    return k_dash;
  }
  if (b.empty()) {
    return a + " \u2013 (not finished)";
  }
  if (a.size() > 11 && b.size() > 11 && a.compare(0, 10, b, 0, 10) == 0) {
    b = b.substr(11);
  }
  return a + " \u2013 " + b;
}

std::string profile_label(const results::SpecRecord& spec) {
  return spec.profile_title.empty() ? spec.profile : spec.profile_title;
}

// A count the document may lack, as text ("" when absent).
std::string count_text(const std::optional<uint64_t>& n) { return n ? std::to_string(*n) : std::string(); }

// A count whose 0 means "not recorded" (a capacity, a sector size), as text.
std::string nonzero_text(uint64_t n) { return n > 0 ? std::to_string(n) : std::string(); }

PageHeader base_header(const results::RunHeader& run) {
  PageHeader h;
  h.revision = revision_label(run.spec.revision);
  h.profile = profile_label(run.spec);
  h.vendor = or_dash(run.device.vendor);
  h.model = or_dash(run.device.model);
  h.tested_by = run.config.tested_by;
  if (h.tested_by.empty()) {
    h.tested_by = "not stated";
  }
  h.columns[0] = {"Test Platform", platform_rows(run)};
  if (run.simulation) h.simulated = results::simulation_banner(*run.simulation);
  return h;
}

std::string interface_text(const results::RunHeader& run) {
  std::string out = run.device.transport;
  if (const std::optional<results::PcieLink>& pcie = run.platform.pcie; pcie) {
    out +=
        fmt::format(", PCIe {} x{}", or_dash(pcie->current_link_speed), or_dash(count_text(pcie->current_link_width)));
    if (!pcie->max_link_speed.empty()) {
      out += fmt::format(" (max {} x{})", pcie->max_link_speed, or_dash(count_text(pcie->max_link_width)));
    }
  }
  return or_dash(out);
}

std::string wipc_text(const results::WipcRecord& pc) {
  const results::SegmentSpecRecord spec = results::read_segment_spec(pc.pass.spec);
  const std::optional<uint64_t> written = pc.pass.written_bytes();
  const uint64_t bs = pc.pass.block_size_bytes;
  std::string out =
      fmt::format("SEQ {} W, TC {} / QD {}, {} capacity", bs > 0 ? kib_label(bs) : k_dash, count_text(spec.threads),
                  count_text(spec.queue_depth), fmt_capacity_multiple(pc.pass.capacity_multiple));
  if (written) {
    out += fmt::format(" ({:.1f} MB written)", static_cast<double>(*written) / 1e6);
  }
  if (pc.random_pass) {
    const results::WipcPass& random = *pc.random_pass;
    const std::optional<uint64_t> random_written = random.written_bytes();
    out += fmt::format(
        "; then RND {} W, {} capacity (PTS-C random WIPC{})",
        random.block_size_bytes > 0 ? kib_label(random.block_size_bytes) : k_dash,
        fmt_capacity_multiple(random.capacity_multiple),
        random_written ? fmt::format(", {:.1f} MB written", static_cast<double>(*random_written) / 1e6) : "");
  }
  return text(out);
}

}  // namespace

std::string size_label(const std::string& name) {
  try {
    return kib_label(units::parse_size_bytes(name, "phase"));
  } catch (const Error&) {
    return name;
  }
}

std::string phase_name(const results::RoundPhase& phase) { return size_label(phase.phase); }

const results::RoundPhase& phase_at(const std::vector<results::RoundPhase>& phases, size_t i) {
  static const results::RoundPhase k_none;
  return i < phases.size() ? phases[i] : k_none;
}

std::string toio_text(const std::optional<results::ToioRecord>& toio) {
  if (!toio) {
    return k_dash;
  }
  return fmt::format("TC {} / QD {} (TOIO {})", toio->threads, toio->queue_depth,
                     static_cast<uint64_t>(toio->threads) * toio->queue_depth);
}

Rows platform_rows(const results::RunHeader& run) {
  const results::PlatformRecord& p = run.platform;
  Rows rows;
  rows.emplace_back("CPU",
                    text(or_dash(p.cpu_model)) + (p.cpu_count ? text(fmt::format(" \u00d7 {}", *p.cpu_count)) : ""));
  rows.emplace_back("Memory", p.memory_bytes ? text(units::format_size_human(*p.memory_bytes)) : k_dash);
  rows.emplace_back("OS", text(or_dash(p.distribution)));
  rows.emplace_back("Kernel", text(or_dash(p.kernel_release) + " " + p.machine));
  rows.emplace_back("Test software", text(fmt::format("{} {} (git {})", or_dash(run.tool.name),
                                                      or_dash(run.tool.version), or_dash(run.tool.git_revision))));
  rows.emplace_back("IO engine", text(or_dash(run.config.engine)) + ", O_DIRECT");
  rows.emplace_back("Interface", text(interface_text(run)));
  rows.emplace_back("IO scheduler", text(or_dash(p.io_scheduler)));
  std::string target = run.target.path;
  if (!run.target.scratch.empty()) {
    target += " (scratch: " + run.target.scratch + ")";
  }
  rows.emplace_back("Target", text(or_dash(target)));
  return rows;
}

std::string purge_html(const std::vector<results::PurgeRecord>& purges) {
  std::string out;
  std::set<std::string> seen;
  for (const results::PurgeRecord& p : purges) {
    const std::string method = or_dash(p.method);
    const bool pts = p.pts_compliant;
    const std::string& outcome = p.outcome;
    const std::string key = method + (pts ? "1" : "0") + outcome;
    if (!seen.insert(key).second) {
      continue;
    }
    if (!out.empty()) {
      out += "; ";
    }
    out += text(method);
    if (!outcome.empty() && outcome != "succeeded") {
      out += " <span class=\"bad\">(" + text(outcome) + ")</span>";
    }
    out += pts ? " (PTS purge)" : " <span class=\"bad\">(NOT a PTS purge)</span>";
  }
  return out.empty() ? "none recorded" : out;
}

std::string write_cache_html(const results::TestHeader& test) {
  const std::string required = str(test.write_cache_required.value);
  std::string out = "required " + text(or_dash(required));
  if (!test.write_cache) {
    return out + "; state not recorded";
  }
  const results::WriteCacheRecord& rec = *test.write_cache;
  const results::WriteCacheState& applied = rec.applied;
  if (!applied.applicable) {
    return out + "; <span class=\"bad\">not controllable</span> (" + text(applied.note) + ")";
  }
  if (!applied.enabled) {
    return out + "; <span class=\"bad\">state unknown after setting</span>";
  }
  const bool requested = rec.requested_enabled;
  const std::string state = *applied.enabled ? "enabled (WCE)" : "disabled (WCD)";
  if (*applied.enabled == requested) {
    return out + "; set " + state + ", read back";
  }
  return out + "; <span class=\"bad\">read back " + state + "</span>";
}

namespace {

// The value of a setting from the run's disclosure ("settings"), or `absent`.
std::string setting_text(const results::RunHeader& run, const std::string& name, const std::string& absent) {
  for (const results::SettingRecord& s : run.settings) {
    if (s.name == name) {
      return str(s.value);
    }
  }
  return absent;
}

// The rows of the DUT column both the summary and the test pages show: the device.
Rows device_rows(const results::RunHeader& run) {
  const results::DeviceRecord& d = run.device;
  Rows rows;
  rows.emplace_back("Mfgr", text(or_dash(d.vendor)));
  rows.emplace_back("Model No.", text(or_dash(d.model)));
  rows.emplace_back("S/N", text(or_dash(d.serial)));
  rows.emplace_back("Firmware", text(or_dash(d.firmware)));
  rows.emplace_back("Capacity", d.capacity_bytes > 0 ? text(fmt_bytes(d.capacity_bytes)) : k_dash);
  rows.emplace_back("NAND Type", text(setting_text(run, "device.nand_type", "not stated")));
  rows.emplace_back("Sectors",
                    text(fmt::format("{} B logical / {} B physical", or_dash(nonzero_text(d.logical_block_bytes)),
                                     or_dash(nonzero_text(d.physical_block_bytes)))));
  rows.emplace_back("Interface", text(interface_text(run)));
  return rows;
}

}  // namespace

Rows dut_rows(const results::RunHeader& run, const results::TestRecord& test) {
  Rows rows = device_rows(run);
  rows.emplace_back("Purge Method", purge_html(test.purges));
  rows.emplace_back("Write Cache", write_cache_html(test.header));
  return rows;
}

Rows dut_rows(const results::RunDocument& doc) {
  Rows rows = device_rows(doc.header);
  // Summary: the distinct purge cells over the tests.
  std::set<std::string> purges;
  std::string purge;
  for (const results::TestRecord& t : doc.tests) {
    const std::string cell = purge_html(t.purges);
    if (purges.insert(cell).second) {
      purge += (purge.empty() ? "" : "; ") + cell;
    }
  }
  rows.emplace_back("Purge Method", purge.empty() ? "none recorded" : purge);
  rows.emplace_back("Write Cache", !doc.tests.empty()
                                       ? write_cache_html(doc.tests.front().header) + " (per test on its pages)"
                                       : k_dash);
  return rows;
}

std::string data_pattern_html(const std::string& p) {
  if (p == "random") {
    return "RND (random)";
  }
  if (p == "refill") {
    return "RND (refilled per IO)";
  }
  if (p == "zeros") {
    return "<span class=\"bad\">zeros (not PTS data)</span>";
  }
  return text(or_dash(p));
}

std::string ss_rounds_html(const results::RoundPhase& phase) {
  const results::PhaseSteadyState& ss = phase.steady_state;
  const results::MeasurementWindow& mw = phase.measurement_window;
  const std::string window = fmt::format("Rounds {}\u2013{}", mw.first_round, mw.last_round);
  if (!ss.stop_at_steady_state) {
    return text(window) + text(fmt::format(" of a fixed {} Rounds (not a steady-state phase)", ss.rounds_run));
  }
  if (ss.attained) {
    return text(window) + ", steady state at Round " +
           text(ss.attained_round ? std::to_string(*ss.attained_round) : "");
  }
  return text(window) + ", <span class=\"bad\">SS NOT ACHIEVED</span> (" + text(std::to_string(ss.rounds_run)) +
         " Rounds run)";
}

Rows round_loop_rows(const results::RoundPhase& phase) {
  Rows rows;
  if (!phase.round_template.empty()) {
    const std::optional<uint64_t> d = results::read_segment_spec(phase.round_template.front()).duration_ns;
    rows.emplace_back("Segments", text(fmt::format("{} per Round, {} each", phase.round_template.size(),
                                                   d ? fmt_duration_ns(*d) : k_dash)));
  }
  const results::PhaseSteadyState& ss = phase.steady_state;
  rows.emplace_back("SS window", text(fmt::format("{} Rounds; data excursion \u2264 {} %, slope excursion \u2264 {} % "
                                                  "of the average",
                                                  ss.criteria.window_rounds, ss.criteria.data_excursion_pct,
                                                  ss.criteria.slope_excursion_pct)));
  rows.emplace_back("Rounds", text(fmt::format("checked from Round {}, at most {}; {} run", ss.first_check_round,
                                               ss.max_rounds, ss.rounds_run)));
  std::string tracking;
  for (const results::PhaseTracking& t : phase.tracking) {
    tracking += (tracking.empty() ? "" : "; ") + t.name;
  }
  rows.emplace_back("Tracking", text(or_dash(tracking)));
  return rows;
}

Rows matrix_loop_rows(const std::vector<std::string>& mixes, const std::vector<std::string>& block_sizes,
                      const std::optional<results::ToioRecord>& toio, const results::RoundPhase& phase) {
  Rows rows;
  rows.emplace_back("Stimulus", "RND; R/W mix outer loop, block size inner loop");
  rows.emplace_back("R/W mixes", text(join(mixes, ", ")));
  rows.emplace_back("Block sizes", text(join(block_sizes, ", ")));
  rows.emplace_back("TOIO", text(toio_text(toio)));
  for (auto& row : round_loop_rows(phase)) {
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {

// The AR & Amount cell: the ActiveRange with its bytes of the device, the random IO's amount.
std::string active_range_text(const results::RunHeader& run, const results::TestHeader& test) {
  const double ar = test.active_range_pct;
  std::string ar_text = fmt_percent(ar);
  if (std::isfinite(ar) && run.device.capacity_bytes > 0) {
    ar_text +=
        " (" + fmt_bytes(static_cast<uint64_t>(static_cast<double>(run.device.capacity_bytes) * ar / 100.0)) + ")";
  }
  if (test.ar_segments && test.ar_segments->amount_bytes) {
    ar_text += "; Amount " + fmt_bytes(*test.ar_segments->amount_bytes) + " (random IO)";
  }
  return ar_text;
}

}  // namespace

Rows common_setup_rows(const results::RunHeader& run, const results::TestRecord& test, const std::string& wdpc) {
  const results::TestHeader& th = test.header;
  Rows rows;
  rows.emplace_back("Data Pattern", data_pattern_html(th.data_pattern));
  rows.emplace_back("AR & Amount", text(active_range_text(run, th)));
  const std::string segments = th.ar_segments ? th.ar_segments->description : std::string();
  rows.emplace_back("AR Segments", text(segments.empty() ? k_dash : segments));
  const std::vector<results::WipcRecord>& pcs = test.preconditioning;
  if (!pcs.empty()) {
    for (const results::WipcRecord& pc : pcs) {
      const std::string phase = size_label(pc.phase);
      rows.emplace_back(pcs.size() > 1 ? "PC1 (" + phase + ")" : "PC1 WIPC", wipc_text(pc));
    }
  } else {
    rows.emplace_back("PC1 WIPC", "none (from the purged state)");
  }
  if (!wdpc.empty()) {
    rows.emplace_back("PC2 WDPC", wdpc);
  }
  const std::vector<results::RoundPhase>& phases = test.phases;
  for (const results::RoundPhase& phase : phases) {
    const std::string name = phase_name(phase);
    rows.emplace_back(phases.size() > 1 ? "SS Rounds (" + name + ")" : "SS Rounds", ss_rounds_html(phase));
  }
  std::string notes;
  for (const results::RoundPhase& phase : phases) {
    if (phase.steady_state.stop_at_steady_state && !phase.steady_state.attained) {
      notes = "<span class=\"bad\">SS NOT ACHIEVED</span>";
    }
  }
  if (test.compliance.shortened) {
    notes += std::string(notes.empty() ? "" : "; ") + "<span class=\"bad\">SHORTENED (not compliant)</span>";
  }
  for (const results::OmittedEntry& o : th.omitted) {
    notes += std::string(notes.empty() ? "" : "; ") + text("omitted " + o.what + ": " + o.reason);
  }
  if (!th.status.empty() && th.status != "complete") {
    notes += std::string(notes.empty() ? "" : "; ") + "<span class=\"bad\">test " + text(th.status) + "</span>";
  }
  rows.emplace_back("Notes", notes.empty() ? k_dash : notes);
  return rows;
}

PageHeader summary_header(const results::RunDocument& doc) {
  const results::RunHeader& run = doc.header;
  PageHeader h = base_header(run);
  h.title = "PTS Report Summary";
  h.subtitle = "Run summary and compliance verdict per clause";
  h.run_dates = "Run: " + run_dates(run.run.sessions.started_utc, run.run.finished_utc);
  h.columns[1] = {"Device Under Test", dut_rows(doc)};
  Rows setup;
  const results::TestRecord* first = doc.tests.empty() ? nullptr : &doc.tests.front();
  setup.emplace_back("Data Pattern", data_pattern_html(first != nullptr ? first->header.data_pattern : ""));
  setup.emplace_back("AR", text(fmt_percent(first != nullptr ? first->header.active_range_pct : std::nan(""))));
  setup.emplace_back("AR Segments", "per test on its pages");
  setup.emplace_back("Profile", text(profile_label(run.spec)));
  std::string presets;
  for (const std::string& p : run.config.presets) {
    presets += (presets.empty() ? "" : ", ") + p;
  }
  setup.emplace_back("Presets", presets.empty() ? "none" : "<span class=\"bad\">" + text(presets) + "</span>");
  setup.emplace_back("Seed", text(std::to_string(run.config.seed)));
  h.columns[2] = {"Set-up Parameters", setup};
  Rows params;
  std::string list;
  for (const results::TestRecord& t : doc.tests) {
    list += (list.empty() ? "" : ", ") + t.header.title;
  }
  params.emplace_back("Tests", text(or_dash(list)));
  params.emplace_back("Specification", text(or_dash(run.spec.title)));
  params.emplace_back("Run status", text(or_dash(run.run.status)));
  params.emplace_back("Units", "MB = 10<sup>6</sup> bytes (decimal); block sizes in KiB (1024 B); times in ms");
  h.columns[3] = {"Test Parameters", params};
  return h;
}

PageHeader test_header(const results::RunHeader& run, const results::TestRecord& test, Rows setup, Rows params) {
  const results::TestHeader& th = test.header;
  PageHeader h = base_header(run);
  h.title = or_dash(th.title) + " Test \u2013 Report Page";
  h.subtitle = th.subtitle;
  const std::string section = str(th.section.value);
  if (!section.empty() && section != "-") {  // "-": not a PTS test (ptsuite validate)
    h.subtitle += " (\u00a7" + section + ")";
  }
  if (!th.spec_revision.empty()) {
    h.revision = revision_label(th.spec_revision);
  }
  h.run_dates = "Test run: " + run_dates(th.started_utc, th.finished_utc);
  h.columns[1] = {"Device Under Test", dut_rows(run, test)};
  h.columns[2] = {"Set-up Parameters", std::move(setup)};
  h.columns[3] = {"Test Parameters", std::move(params)};
  return h;
}

}  // namespace ptsuite::report::html
