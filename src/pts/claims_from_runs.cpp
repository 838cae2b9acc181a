// Claims judged on existing runs (pts/claims_from_runs.hpp).
#include <ptsuite/pts/claims_from_runs.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <optional>

#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/rw_mix.hpp>
#include <ptsuite/pts/segment.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/run_draft.hpp>
#include <ptsuite/results/test_kinds.hpp>
#include <ptsuite/results/validation.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/workload/spec_parse.hpp>

namespace ptsuite::pts {

namespace {

using nlohmann::json;

struct SourcePoint {
  ClaimConditions conditions;
  stats::IoSummary summary;
  std::optional<results::PointSteadyState> steady_state;  // none for FOB points
  results::PointSource source;
};

results::PointSource source_of(const SourceRun& run, const std::string& test, const std::string& phase) {
  return {"run", run.dir, test, phase, std::nullopt, run.results_sha256};
}

// A point's conditions as the claims they cover state them (strict: an unknown pattern or R/W
// mix is an error naming the field).
ClaimConditions conditions_of(const results::ClaimConditionsRecord& c) {
  return ClaimConditions{workload::parse_access_pattern(c.pattern, "conditions.pattern"),
                         c.block_size_bytes,
                         parse_rw_mix(c.rw_mix, "conditions.rw_mix"),
                         c.threads,
                         c.queue_depth,
                         c.state == "fob" ? ClaimState::fob : ClaimState::steady_state,
                         c.active_range_pct};
}

// The measured summary of a point or window cell (strict: a point without its measurement is
// no source, stats/stats_json.hpp throws).
stats::IoSummary io_summary(const results::Embedded& summary) { return summary.get().get<stats::IoSummary>(); }

void points_of_claims_record(const SourceRun& run, const results::TestRecord& rec, std::vector<SourcePoint>& out) {
  const results::ValidationBlock* validation = rec.block_as<results::ValidationBlock>();
  if (validation == nullptr) {
    throw UsageError(run.dir, "its claims record has no validation block");
  }
  for (const results::ValidationPoint& point : validation->points) {
    SourcePoint sp;
    sp.conditions = conditions_of(point.conditions);
    sp.summary = io_summary(point.summary);
    sp.steady_state = point.steady_state;
    sp.source = source_of(run, "claims", point.id);
    out.push_back(std::move(sp));
  }
}

// Every steady-state segment of a PTS record with one block size and no LBA zones. Random
// segments run under an AR Amount (ar_segments.amount_bytes) addressed only part of the AR,
// a condition no claim states: they are not points.
void points_of_pts_record(const SourceRun& run, const results::TestRecord& rec, std::vector<SourcePoint>& out) {
  const std::string& test = rec.header.id;
  const bool ar_amount = rec.header.ar_segments && rec.header.ar_segments->amount_bytes;
  for (const results::RoundPhase& phase : rec.phases) {
    const std::vector<results::WindowCell>& window = phase.measurement_window.cells;
    for (size_t i = 0; i < phase.round_template.size() && i < window.size(); ++i) {
      const SegmentSpec s = phase.round_template[i].get().get<SegmentSpec>();  // strict, pts/segment.hpp
      if (s.block_sizes.size() != 1 || !s.zones.empty()) continue;
      if (ar_amount && s.pattern == workload::AccessPattern::random) continue;
      SourcePoint sp;
      sp.conditions = ClaimConditions{s.pattern,
                                      s.block_sizes[0].bytes,
                                      s.mix,
                                      s.threads,
                                      s.queue_depth,
                                      ClaimState::steady_state,
                                      rec.header.active_range_pct};
      sp.summary = io_summary(window[i].summary);
      sp.steady_state =
          results::PointSteadyState{phase.steady_state.verdicts.attained, static_cast<uint32_t>(phase.rounds.size()),
                                    phase.measurement_window.first_round, phase.measurement_window.last_round};
      sp.source = source_of(run, test, phase.phase);
      sp.source.segment = s.label;
      out.push_back(std::move(sp));
    }
  }
}

std::vector<SourcePoint> source_points(const std::vector<SourceRun>& runs,
                                       const std::vector<results::RunDocument>& docs) {
  std::vector<SourcePoint> out;
  for (size_t r = 0; r < runs.size() && r < docs.size(); ++r) {
    const SourceRun& run = runs[r];
    for (const results::TestRecord& rec : docs[r].tests) {
      if (rec.header.status != "complete") continue;
      if (rec.header.id == results::test_kind::claims::id) {
        points_of_claims_record(run, rec, out);
      } else {
        points_of_pts_record(run, rec, out);
      }
    }
  }
  return out;
}

// Same workload and state; only TC/QD or the ActiveRange differ.
bool near(const ClaimConditions& a, const ClaimConditions& b) {
  return a.pattern == b.pattern && a.block_bytes == b.block_bytes && a.mix == b.mix && a.state == b.state;
}

std::string not_covered_reason(const ClaimConditions& c, const std::vector<SourcePoint>& points) {
  std::string why = fmt::format("no run measured {}", conditions_text(c));
  for (const SourcePoint& p : points) {
    if (near(p.conditions, c)) {
      return why + fmt::format("; nearest: {} ({} in {})", conditions_text(p.conditions), p.source.test.value_or(""),
                               p.source.dir.value_or(""));
    }
  }
  if (c.state == ClaimState::fob) why += "; FOB claims need a FOB measurement (ptsuite validate on the drive)";
  return why;
}

// Each source's results.json read once into its typed document.
std::vector<results::RunDocument> read_runs(const std::vector<SourceRun>& runs) {
  std::vector<results::RunDocument> docs;
  docs.reserve(runs.size());
  for (const SourceRun& r : runs) {
    docs.push_back(results::read_run_document(r.results));
  }
  return docs;
}

results::ValidationBlock validation_of(const ClaimSheet& sheet, const std::vector<SourceRun>& runs,
                                       const std::vector<results::RunDocument>& docs) {
  const std::vector<SourcePoint> sources = source_points(runs, docs);
  std::vector<results::ValidationPoint> points;
  std::vector<std::optional<size_t>> used_as(sources.size());
  std::vector<results::ClaimOutcome> claims;
  for (const Claim& claim : sheet.claims) {
    size_t s = 0;
    while (s < sources.size() && !(sources[s].conditions == claim.conditions)) ++s;
    if (s == sources.size()) {
      claims.push_back(claim_result(claim, "", nullptr, not_covered_reason(claim.conditions, sources)));
      continue;
    }
    if (!used_as[s]) {
      used_as[s] = points.size();
      results::ValidationPoint point;
      point.id = fmt::format("p{:02}", points.size() + 1);
      point.conditions = record_of(sources[s].conditions);
      point.summary = results::Embedded(json(sources[s].summary));
      point.steady_state = sources[s].steady_state;
      point.source = sources[s].source;
      points.push_back(std::move(point));
    }
    results::ValidationPoint& point = points[*used_as[s]];
    point.claims.push_back(claim.id);
    claims.push_back(claim_result(claim, point.id, &sources[s].summary));
  }
  return validation_block(sheet, std::move(points), std::move(claims), "from-runs");
}

// The test-level verdict: one "source_run" clause per run (its own run-level verdict).
results::ComplianceRecord sources_compliance(const std::vector<SourceRun>& runs,
                                             const std::vector<results::RunDocument>& docs) {
  results::ComplianceRecord out;
  out.compliant = true;
  for (size_t i = 0; i < runs.size() && i < docs.size(); ++i) {
    const SourceRun& r = runs[i];
    const results::ComplianceRecord& verdict = docs[i].compliance;
    const bool ok = verdict.compliant;
    const std::string summary = docs[i].has_compliance ? verdict.summary : "no compliance verdict";
    out.compliant = out.compliant && ok;
    out.shortened = out.shortened || verdict.shortened;
    out.clauses.push_back({"source_run", "Source run " + r.dir, "-", ok ? "pass" : "fail", summary});
    if (!ok) out.reasons.push_back(fmt::format("source_run: {}: {}", r.dir, summary));
    for (const std::string& n : verdict.notes) out.notes.push_back(r.dir + ": " + n);
  }
  out.summary = out.compliant ? "compliant" : out.shortened ? "not compliant: shortened" : "not compliant";
  return out;
}

// The fields every test record has, copied as the first source's first test recorded them.
void common_fields(const results::RunDocument& first, results::TestHeader& h) {
  if (first.tests.empty()) {
    return;
  }
  const results::TestHeader& base = first.tests.front().header;
  h.active_range_pct = base.active_range_pct;
  h.write_cache_required = base.write_cache_required;
  h.data_pattern = base.data_pattern;
  h.alignment = base.alignment;
  h.write_cache = base.write_cache;
  h.ar_segments = base.ar_segments;
}

// The deepest queue any point ran at (at least 1).
uint32_t max_queue_depth(const results::ValidationBlock& validation) {
  uint32_t max_qd = 1;
  for (const results::ValidationPoint& p : validation.points) {
    max_qd = std::max(max_qd, p.conditions.queue_depth);
  }
  return max_qd;
}

// The one "claims" test record: its validation block and one verdict clause per source run.
results::TestRecord claims_record(const std::vector<SourceRun>& runs, const std::vector<results::RunDocument>& docs,
                                  results::ValidationBlock validation, const std::string& created_utc) {
  const json& section = DefinitionSet::embedded().test("claims").at("section");
  results::TestRecord rec;
  results::TestHeader& h = rec.header;
  h.id = "claims";
  h.title = DefinitionSet::embedded().test("claims").value("title", "claims");
  h.subtitle = "Declared vs measured, judged on existing runs";
  h.section = results::read_spec_value(section);
  h.spec_revision = docs.front().header.spec.revision;
  h.profile = docs.front().header.spec.profile;
  h.status = "complete";
  h.started_utc = created_utc;
  h.finished_utc = created_utc;
  common_fields(docs.front(), h);
  h.max_queue_depth = max_queue_depth(validation);
  rec.compliance = sources_compliance(runs, docs);
  rec.has_compliance = true;
  rec.block_key = "validation";
  rec.block = std::move(validation);
  return rec;
}

}  // namespace

results::ValidationBlock validation_from_runs(const ClaimSheet& sheet, const std::vector<SourceRun>& runs) {
  return validation_of(sheet, runs, read_runs(runs));
}

json results_from_runs(const ClaimSheet& sheet, const std::vector<SourceRun>& runs, const FromRunsInputs& inputs) {
  const std::string& created_utc = inputs.created_utc;
  if (runs.empty()) throw UsageError("RUN_DIR", "give at least one run directory");
  const std::vector<results::RunDocument> docs = read_runs(runs);
  for (size_t i = 0; i < runs.size(); ++i) {
    if (docs[i].header.kind != "ptsuite.results") {
      throw UsageError(runs[i].dir, "results.json is not a ptsuite results document");
    }
  }
  results::RunDraft doc = results::read_run_draft(runs.front().results);
  doc.preflight.reset();
  results::RunConfigRecord config = docs.front().header.config;
  config.tests = {"claims"};
  config.mode = "from-runs";
  config.claims = inputs.sheet;
  config.claims_path = inputs.claims_path;
  config.command_line = inputs.command_line;
  config.tested_by = inputs.tested_by;
  config.out_dir = inputs.out_dir;
  config.report_formats = inputs.report_formats;
  config.strict_preflight = false;
  doc.config = config;
  const results::TestRecord rec = claims_record(runs, docs, validation_of(sheet, runs, docs), created_utc);
  results::ComplianceRecord run_verdict = rec.compliance;
  run_verdict.clauses = {results::ClauseRecord{"claims", "Test claims", "-", run_verdict.compliant ? "pass" : "fail",
                                               run_verdict.summary}};
  for (std::string& r : run_verdict.reasons) r = "claims: " + r;
  doc.tests = {json(rec).dump()};
  doc.compliance = run_verdict;
  // The fingerprint of a from-runs validation is that of its inputs: every source's hash.
  std::string hashes;
  for (const SourceRun& r : runs) hashes += r.results_sha256;
  results::RunRecord& run = doc.run.emplace();
  run.status = "complete";
  run.mode = "validate-from-runs";
  run.sessions.started_utc = created_utc;
  run.finished_utc = created_utc;
  run.plan_fingerprint = sha256_hex(hashes);
  for (size_t i = 0; i < runs.size(); ++i) {
    run.sources.push_back({runs[i].dir, runs[i].results_sha256, docs[i].header.device.serial, docs[i].tests.size()});
  }
  doc.stop_partial_segment.reset();
  doc.plan = results::PlanRecord{0, 0};
  doc.plan_assumptions = nullptr;
  return doc;  // the document's one writer, results/run_draft.hpp
}

}  // namespace ptsuite::pts
