#include <ptsuite/results/xsr.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

template <typename Group>  // XsrGroup, const (copied) or not (released)
nlohmann::json group_json(Group& g) {
  return {{"name", g.name},
          {"label", g.label},
          {"stimulus", g.stimulus},
          {"spec", take(g.spec)},
          {"duration_ns", g.duration_ns},
          {"samples", g.samples},
          {"first_sample", g.first_sample},
          {"write_bytes", g.write_bytes},
          {"elapsed_ns", g.elapsed_ns},
          {"average_mb_per_s", g.average_mb_per_s},
          {"end_mb_per_s", g.end_mb_per_s},
          {"peak_latency_mean_ns", g.peak_latency_mean_ns},
          {"peak_latency_max_ns", g.peak_latency_max_ns}};
}

template <typename Sample>  // XsrSample, const (copied) or not (released)
nlohmann::json xsr_sample_json(Sample& s) {
  return {{"sample", s.sample},
          {"group", s.group},
          {"end_s", s.end_s},
          {"group_end_s", s.group_end_s},
          {"mb_per_s", s.mb_per_s},
          {"iops", s.iops},
          {"latency_mean_ns", s.latency_mean_ns},
          {"latency_p99_999_ns", s.latency_p99_999_ns},
          {"latency_max_ns", s.latency_max_ns},
          {"health", take(s.health)},
          {"result", take(s.result)}};
}

nlohmann::json recovery_json(const XsrRecovery& r) {
  nlohmann::json j = {{"reference", r.reference},
                      {"threshold_pct", r.threshold_pct},
                      {"reference_mb_per_s", r.reference_mb_per_s},
                      {"threshold_mb_per_s", r.threshold_mb_per_s},
                      {"group", r.group},
                      {"recovered", r.recovered},
                      {"recovery_time_s", nullptr},
                      {"recovery_sample", nullptr}};
  if (r.recovery_time_s) {
    j["recovery_time_s"] = *r.recovery_time_s;
  }
  if (r.recovery_sample) {
    j["recovery_sample"] = *r.recovery_sample;
  }
  return j;
}

XsrRecovery read_recovery(const nlohmann::json& j) {
  XsrRecovery r;
  r.reference = str(j, "reference");
  r.threshold_pct = num(at(j, "threshold_pct"));
  r.reference_mb_per_s = num(at(j, "reference_mb_per_s"));
  r.threshold_mb_per_s = num(at(j, "threshold_mb_per_s"));
  r.group = str(j, "group");
  r.recovered = at(j, "recovered") == true;
  if (at(j, "recovery_time_s").is_number()) {
    r.recovery_time_s = num(at(j, "recovery_time_s"));
  }
  if (at(j, "recovery_sample").is_number_unsigned()) {
    r.recovery_sample = count32(at(j, "recovery_sample"));
  }
  return r;
}

// One body for both writers: Block is `const XsrBlock` (sub-documents copied) or `XsrBlock`
// (an rvalue being written: released).
template <typename Block>
void write_xsr_block(nlohmann::json& j, Block& block) {
  nlohmann::json groups = nlohmann::json::array();
  for (auto& g : block.groups) {
    groups.push_back(group_json(g));
  }
  nlohmann::json samples = nlohmann::json::array();
  for (auto& s : block.samples) {
    samples.push_back(xsr_sample_json(s));
  }
  j = {{"groups", std::move(groups)},
       {"samples", std::move(samples)},
       {"sample_duration_ns", block.sample_duration_ns},
       {"recovery", recovery_json(block.recovery)}};
}

}  // namespace

void to_json(nlohmann::json& j, const XsrBlock& block) { write_xsr_block(j, block); }
void to_json(nlohmann::json& j, XsrBlock&& block) { write_xsr_block(j, block); }

XsrBlock read_xsr(const nlohmann::json& block) {
  XsrBlock x;
  for (const nlohmann::json& g : array(block, "groups")) {
    x.groups.push_back({str(g, "name"), str(g, "label"), str(g, "stimulus"), Embedded::borrow(at(g, "spec")),
                        count(at(g, "duration_ns")), count32(at(g, "samples")), count32(at(g, "first_sample")),
                        count(at(g, "write_bytes")), count(at(g, "elapsed_ns")), num(at(g, "average_mb_per_s")),
                        num(at(g, "end_mb_per_s")), num(at(g, "peak_latency_mean_ns")),
                        count(at(g, "peak_latency_max_ns"))});
  }
  for (const nlohmann::json& s : array(block, "samples")) {
    x.samples.push_back({count32(at(s, "sample")), str(s, "group"), num(at(s, "end_s")), num(at(s, "group_end_s")),
                         num(at(s, "mb_per_s")), num(at(s, "iops")), num(at(s, "latency_mean_ns")),
                         count(at(s, "latency_p99_999_ns")), count(at(s, "latency_max_ns")),
                         Embedded::borrow(at(s, "health")), Embedded::borrow(at(s, "result"))});
  }
  x.sample_duration_ns = count(at(block, "sample_duration_ns"));
  x.recovery = read_recovery(at(block, "recovery"));
  return x;
}

}  // namespace ptsuite::results
