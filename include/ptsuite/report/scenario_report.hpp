// Contract: the reports of a scenario run, rendered from its results document only
// (kind "ptsuite.scenario"; scenario/scenario_runner.hpp): scenario_text() is the plain
// summary (one line per step: aggregate IOPS, MB/s, mean / 99 % / max latency), and
// scenario_html() the self-contained HTML report with SVG charts per phase kind:
//   txq          throughput and mean / max / stddev latency vs TC x QD, per target
//   rate_ramp    the load curve: mean latency vs achieved IOPS, per target
//   rate_steps   the other streams' mean and 99 % read latency vs the stepped rate
//   steady_state the tracked variable per Round, per target
//   run          with several stream instances: mean / 99 / 99.9 / 99.99 % read latency bars
//                per instance (noisy neighbour)
// plus a table of every step. Pure functions of the document.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::report {

std::string scenario_text(const nlohmann::json& doc);
std::string scenario_html(const nlohmann::json& doc);

}  // namespace ptsuite::report
