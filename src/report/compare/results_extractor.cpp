// The extractor of "ptsuite.results" documents (docs/results.md): the facts of a run and, per
// test, the workload fields that must match for an overlay.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/test_record.hpp>

#include "report/compare/extractors.hpp"
#include "report/results_read.hpp"
#include "report/writer_internal.hpp"

namespace ptsuite::report::compare {

namespace {

using nlohmann::json;

// A value as text: strings as they are, lists joined with ", ", null as "".
std::string value_text(const json& v) {
  if (v.is_string()) {
    return v.get<std::string>();
  }
  if (v.is_null()) {
    return {};
  }
  if (v.is_array()) {
    std::string out;
    for (const json& e : v) {
      out += (out.empty() ? "" : ", ") + value_text(e);
    }
    return out;
  }
  return v.dump();
}

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end()) {
    list.push_back(item);
  }
}

std::string joined(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& s : list) {
    out += (out.empty() ? "" : ", ") + s;
  }
  return out;
}

// "4KiB", or "mix 0.5KiB:4 %, 4KiB:67 %" for a weighted block-size distribution.
std::string block_sizes_text(const json& block_sizes) {
  if (block_sizes.size() == 1) {
    return size_text(member(block_sizes[0], "bytes"));
  }
  std::string out;
  for (const json& b : block_sizes) {
    out += fmt::format("{}{}:{}", out.empty() ? "mix " : ", ", size_text(member(b, "bytes")),
                       value_text(member(b, "weight")));
  }
  return out;
}

// The segment specs a test's stimulus is made of: every Round template entry, and the WSAT /
// endurance sample segment.
std::vector<const json*> stimulus_specs(const json& test) {
  std::vector<const json*> specs;
  for (const results::RoundPhase& phase : results::read_round_phases(member(test, "phases"))) {
    for (const results::Embedded& s : phase.round_template) {
      specs.push_back(&s.get());  // into the document (borrowed), so it outlives `phase`
    }
  }
  for (const char* block : {"wsat", "endurance"}) {
    const json& seg = member(member(test, block), "segment");
    if (seg.is_object()) {
      specs.push_back(&seg);
    }
  }
  return specs;
}

std::string toio_text(const json& toio) {
  if (!toio.is_object()) {
    return "swept (no single TOIO)";
  }
  return fmt::format("TC {} x QD {}", value_text(member(toio, "threads")), value_text(member(toio, "queue_depth")));
}

// The block of a demand-intensity test (CBW, DIRTH, ECW), or null.
const json& demand_block(const json& test) {
  for (const char* key : {"cbw", "dirth", "ecw"}) {
    if (member(test, key).is_object()) {
      return member(test, key);
    }
  }
  return member(test, "no-such-block");
}

TestFacts test_facts(const json& test) {
  TestFacts t;
  t.id = str(test, "id");
  t.title = str(test, "title");
  std::vector<std::string> sizes;
  std::vector<std::string> mixes;
  std::vector<std::string> toios;
  for (const json* spec : stimulus_specs(test)) {
    add_unique(sizes, block_sizes_text(array(*spec, "block_sizes")));
    add_unique(mixes, str(*spec, "rw_mix"));
    add_unique(toios, fmt::format("TC {} x QD {}", str(*spec, "threads"), str(*spec, "queue_depth")));
  }
  t.workload = {{"TOIO", toio_text(member(test, "toio"))},
                {"active range (%)", value_text(member(test, "active_range_pct"))},
                {"data pattern", str(test, "data_pattern")},
                {"block sizes", joined(sizes)},
                {"R/W mixes", joined(mixes)},
                {"segment TC x QD", joined(toios)}};
  if (member(test, "wsat").is_object()) {
    t.workload.emplace_back("WSAT workload", str(member(test, "wsat"), "workload"));
  }
  const json& demand = demand_block(test);
  if (demand.is_object()) {
    t.workload.emplace_back("thread counts", value_text(member(demand, "thread_counts")));
    t.workload.emplace_back("queue depths", value_text(member(demand, "queue_depths")));
    t.workload.emplace_back("block size mix", block_sizes_text(array(demand, "block_size_mix")));
  }
  return t;
}

json identity_of(const json& doc) {
  const json& device = member(doc, "device");
  json id = json::object();
  for (const char* key : {"vendor", "model", "serial", "firmware", "transport"}) {
    id[key] = member(device, key).is_string() ? member(device, key) : json();
  }
  const json& capacity = member(device, "capacity_bytes");
  id["capacity_bytes"] = capacity.is_number() ? capacity : member(member(doc, "target"), "capacity_bytes");
  return id;
}

class ResultsExtractor final : public ValueExtractor {
 public:
  [[nodiscard]] std::string_view kind() const override { return "ptsuite.results"; }

  void check(const json& document, const std::string& what) const override { check_results_document(document, what); }

  [[nodiscard]] RunFacts facts(const json& doc) const override {
    RunFacts f;
    f.identity = identity_of(doc);
    const json& spec = member(doc, "spec");
    const json& config = member(doc, "config");
    const json& tool = member(doc, "tool");
    f.revision = str(spec, "revision");
    f.profile = str(spec, "profile");
    f.started_utc = str(member(doc, "run"), "started_utc");
    f.tested_by = str(config, "tested_by");
    f.workload = {{"spec revision", f.revision}, {"profile", f.profile}};
    const std::string presets = value_text(member(config, "presets"));
    f.settings = {{"presets", presets.empty() ? "none" : presets},
                  {"engine", str(config, "engine")},
                  {"ptsuite version", fmt::format("{} (git {})", str(tool, "version"), str(tool, "git_revision"))}};
    for (const json& s : array(doc, "settings")) {
      f.settings.emplace_back(str(s, "name"), value_text(member(s, "value")));
    }
    for (const json& test : array(doc, "tests")) {
      f.tests.push_back(test_facts(test));
    }
    return f;
  }

  [[nodiscard]] std::vector<Group> groups(const json& document, const std::string& test_id) const override {
    for (const json& test : array(document, "tests")) {
      if (str(test, "id") == test_id) {
        return results_test_groups(results::read_test_record(test));
      }
    }
    return {};
  }
};

}  // namespace

std::unique_ptr<ValueExtractor> make_results_extractor() { return std::make_unique<ResultsExtractor>(); }

}  // namespace ptsuite::report::compare
