// Contract: the seam between `ptsuite compare` (report/compare.hpp) and one kind of results
// document. A ValueExtractor reads one parsed document of its kind ("kind": "ptsuite.results",
// "ptsuite.scenario", "ptsuite.app_run") once, into its typed document (results::RunDocument,
// ScenarioDocument, AppRun), and the ComparableRun it returns gives plain data: the run's facts
// (drive identity, the run-level fields that must match, the disclosed settings, and per test
// the workload fields that must match) and, per test, the values to overlay as groups (one chart
// and one table each). The comparison core matches tests by id, finds the differences and
// merges the groups of all runs; it never looks inside a document itself.
//
// Extractors are stateless and thread-safe; a ComparableRun is immutable (it owns its typed
// document). Only read() throws (UsageError, exit 2, for a document of the kind that this build
// cannot read); a partial document never makes facts() or groups() throw (a missing value is
// NaN and is skipped). Values carry the unit of their group (`unit`: "IOPS", "MB/s", "ns",
// ...); x positions carry the unit of `x_label` (bytes on a block-size axis). Registry:
// find_extractor() by results kind; adding a kind is one entry in
// src/report/compare/extractor_registry.cpp.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/comparison.hpp>

namespace ptsuite::report::compare {

// A named field of a run or a test, as text: ("spec revision", "2.0.2"), ("TOIO", "TC 4 x QD 32").
using Field = std::pair<std::string, std::string>;

struct TestFacts {
  std::string id;     // "iops", "wsat", ...
  std::string title;  // "IOPS"
  // Fields that must be equal in every run to overlay the test (TOIO, block sizes, R/W mixes,
  // active range, data pattern, ...). A difference refuses the comparison unless forced.
  std::vector<Field> workload;
};

struct RunFacts {
  results::DriveIdentity identity;  // vendor, model, serial, firmware, capacity, transport: nullopt = unknown
  std::string revision;             // spec revision, for the page header ("2.0.2")
  std::string profile;              // "enterprise"
  std::string started_utc;
  std::string tested_by;
  bool simulated = false;       // a simulated drive's run (results "simulation"; docs/sim.md)
  std::vector<Field> workload;  // run-level fields that must match (spec revision, profile)
  std::vector<Field> settings;  // disclosed when they differ (presets, engine, version, settings[])
  std::vector<TestFacts> tests;
};

// How a group is drawn and its x axis, as the comparison document holds them
// (results/comparison.hpp).
using results::GroupKind;
using results::XAxis;

struct Value {
  std::string cell;                                     // "4KiB", "65/35 8KiB", "sample 12"
  double x = std::numeric_limits<double>::quiet_NaN();  // on block_size / linear axes
  double y = std::numeric_limits<double>::quiet_NaN();  // in the group's unit; NaN = missing
};

// One drive's values in a group of a run of several drives (a scenario run's target): the same
// cells as the group's values (cells) or its own points (series).
struct DriveValues {
  uint32_t target = 0;
  std::string name;  // "target 1"
  std::vector<Value> values;
};

struct Group {
  std::string id;      // unique within its test: "iops-65-35"
  std::string title;   // "IOPS \u2013 R/W 65/35"
  std::string metric;  // the results key the values come from: "iops", "latency_mean_ns"
  std::string unit;    // unit of y as stored: "IOPS", "MB/s", "ns"
  GroupKind kind = GroupKind::cells;
  XAxis x_axis = XAxis::category;
  std::string x_label;  // "Block size", "Time (min)", "Total written (GB, 10^9 bytes)"
  bool y_log = false;
  std::vector<Value> values;
  std::string x_unit{};               // the unit of x on a linear axis ("MB/s", "IOPS", "%", "min"): what --at matches
  bool lines = false;                 // join each run's points in x order (curves, steps over a rate or time)
  std::vector<DriveValues> drives{};  // a run of several drives: each drive's (empty otherwise)
};

// A figure the runs of a test can be ranked by (compare ranks the runs by the first figure,
// ties broken by the next; NaN ranks last).
struct RankValue {
  std::string metric;  // "steps_fell_behind", "latency_mean_ns"
  std::string label;   // "steps that could not keep up"
  std::string unit;    // "steps", "ns", "IOPS"
  bool lower_is_better = true;
  double value = std::numeric_limits<double>::quiet_NaN();
};

// One run's document as its extractor read it.
class ComparableRun {
 public:
  virtual ~ComparableRun() = default;
  ComparableRun() = default;
  ComparableRun(const ComparableRun&) = delete;
  ComparableRun& operator=(const ComparableRun&) = delete;
  ComparableRun(ComparableRun&&) = delete;
  ComparableRun& operator=(ComparableRun&&) = delete;

  [[nodiscard]] virtual RunFacts facts() const = 0;
  // The groups of the test `test_id` (empty when it has nothing to overlay).
  [[nodiscard]] virtual std::vector<Group> groups(const std::string& test_id) const = 0;
  // The figures its runs are ranked by (empty: the test is not ranked), with what they mean in
  // words (`basis`, "closed loop: IOPS achieved, higher is better").
  [[nodiscard]] virtual std::vector<RankValue> rank_values(const std::string& /*test_id*/,
                                                           std::string& /*basis*/) const {
    return {};
  }
};

class ValueExtractor {
 public:
  virtual ~ValueExtractor() = default;
  ValueExtractor() = default;
  ValueExtractor(const ValueExtractor&) = delete;
  ValueExtractor& operator=(const ValueExtractor&) = delete;
  ValueExtractor(ValueExtractor&&) = delete;
  ValueExtractor& operator=(ValueExtractor&&) = delete;

  // The "kind" of the documents it reads.
  [[nodiscard]] virtual std::string_view kind() const = 0;
  // The parsed `document` (of this kind) read once into its typed document, which the result
  // shares; UsageError naming `what` unless it is one this build reads.
  [[nodiscard]] virtual std::unique_ptr<const ComparableRun> read(std::shared_ptr<const nlohmann::json> document,
                                                                  const std::string& what) const = 0;
};

// The extractor of a results kind, or nullptr.
const ValueExtractor* find_extractor(std::string_view kind);
// Every registered kind, for error messages ("ptsuite.results").
std::vector<std::string> extractor_kinds();

}  // namespace ptsuite::report::compare
