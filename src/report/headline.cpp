#include <ptsuite/report/headline.hpp>

#include <fmt/format.h>
#include <cmath>

#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/test_kinds.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::report {

namespace {

using results::GridMetric;

std::string headline_iops(double v) { return std::isnan(v) ? "-" : fmt::format("{:.0f} IOPS", v); }
// A latency in the unit its line chose by magnitude (units.hpp: us below 1 ms).
std::string headline_latency(double ns, units::LatencyUnit u) {
  return std::isnan(ns) ? "-"
                        : fmt::format("{:.{}f} {}", units::in_latency_unit(ns, u), units::latency_decimals(u),
                                      units::latency_unit_symbol(u));
}
std::string headline_latency(double ns) { return headline_latency(ns, units::latency_unit_for({ns})); }

// The cell of `block` x `mix` (NaN when the matrix lacks either).
double cell(const results::GridMatrix& m, GridMetric metric, const std::string& block, const std::string& mix) {
  for (size_t r = 0; r < m.rows.size(); ++r) {
    for (size_t c = 0; c < m.columns.size(); ++c) {
      if (m.rows[r].label == block && m.columns[c].label == mix) return m.cell(metric, r, c);
    }
  }
  return std::nan("");
}

std::string iops_line(const results::GridMatrix& m) {
  return fmt::format("RND 4KiB read {}, write {}, 65/35 {}", headline_iops(cell(m, GridMetric::iops, "4KiB", "100/0")),
                     headline_iops(cell(m, GridMetric::iops, "4KiB", "0/100")),
                     headline_iops(cell(m, GridMetric::iops, "4KiB", "65/35")));
}

std::string latency_line(const results::GridMatrix& m) {
  const auto pair = [&](const char* mix) {
    const double art = cell(m, GridMetric::latency_mean_ns, "4KiB", mix);
    const double nines = cell(m, GridMetric::latency_p99_999_ns, "4KiB", mix);
    const units::LatencyUnit u = units::latency_unit_for({art, nines});
    return fmt::format("ART {}, 5 9s {}", headline_latency(art, u), headline_latency(nines, u));
  };
  return fmt::format("RND 4KiB read {}; write {}", pair("100/0"), pair("0/100"));
}

std::string throughput_line(const results::ThroughputTable& table) {
  std::string out;
  for (const results::ThroughputRow& row : table.rows) {
    out += fmt::format("{}SEQ {} read {:.0f} MB/s, write {:.0f} MB/s", out.empty() ? "" : "; ", row.block_size,
                       row.read_mb_per_s, row.write_mb_per_s);
  }
  return out;
}

std::string write_stream_line(const results::WriteStreamBlock& w) {
  if (w.samples.empty()) return {};
  const results::WriteStreamSample& last = w.samples.back();
  return fmt::format("final {} after {:.2f} drive fills ({:.1f} GB written), ART {}", headline_iops(last.iops),
                     last.drive_fills, last.tgbw_gb, headline_latency(last.latency.latency_mean_ns));
}

std::string demand_line(const results::DemandSweepBlock& d) {
  for (const results::OperatingPoint& p : d.operating_points) {
    if (p.name == "max") {
      return fmt::format("MaxIOPS {} at ART {} (TC {} / QD {})", headline_iops(p.iops),
                         headline_latency(p.latency_mean_ns), p.threads, p.queue_depth);
    }
  }
  return {};
}

std::string hir_line(const results::HirBlock& h) {
  return fmt::format("steady-state {}{}", headline_iops(h.steady_state_iops),
                     h.steady_state_attained ? "" : " (SS NOT ACHIEVED)");
}

std::string xsr_line(const results::XsrBlock& x) {
  return x.recovery.recovered ? fmt::format("recovered in {:.0f} s", x.recovery.recovery_time_s.value_or(0))
                              : "did not recover to access group 1's throughput";
}

// The line of the tests a lab quotes, one overload per test kind (results/test_kinds.hpp): the
// same block records serve other tests (latency-sweep, rww-sweep), which have no headline.
namespace kind = results::test_kind;
std::string headline(kind::iops /*kind*/, const results::GridMatrix& m) { return iops_line(m); }
std::string headline(kind::latency /*kind*/, const results::GridMatrix& m) { return latency_line(m); }
std::string headline(kind::throughput /*kind*/, const results::ThroughputTable& t) { return throughput_line(t); }
std::string headline(kind::wsat /*kind*/, const results::WriteStreamBlock& w) { return write_stream_line(w); }
std::string headline(kind::endurance_write /*kind*/, const results::WriteStreamBlock& w) {
  return write_stream_line(w);
}
std::string headline(kind::cbw /*kind*/, const results::DemandSweepBlock& d) { return demand_line(d); }
std::string headline(kind::dirth /*kind*/, const results::DemandSweepBlock& d) { return demand_line(d); }
std::string headline(kind::ecw /*kind*/, const results::DemandSweepBlock& d) { return demand_line(d); }
std::string headline(kind::hir /*kind*/, const results::HirBlock& h) { return hir_line(h); }
std::string headline(kind::xsr /*kind*/, const results::XsrBlock& x) { return xsr_line(x); }
template <typename Kind>
std::string headline(Kind /*kind*/, const typename Kind::Block& /*block*/) {
  return {};
}

std::string line_for(const results::TestRecord& test) {
  return results::visit_test_kind(test.header.id, [&](auto kind) -> std::string {
    // A record without its block renders an empty one: "-" for the cells it lacks.
    using Block = typename decltype(kind)::Block;
    const Block* block = test.block_as<Block>();
    return headline(kind, block != nullptr ? *block : Block{});
  });
}

}  // namespace

std::vector<std::string> headline_lines(const results::RunDocument& doc) {
  std::vector<std::string> out;
  for (const results::TestRecord& test : doc.tests) {
    if (const std::string line = line_for(test); !line.empty()) {
      out.push_back(fmt::format("  {:<11} {}", test.header.id, line));
    }
  }
  return out;
}

}  // namespace ptsuite::report
