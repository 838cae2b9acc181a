#include <ptsuite/results/purge.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

nlohmann::json progress_json(const std::vector<PurgeProgressPoint>& progress) {
  nlohmann::json out = nlohmann::json::array();
  for (const PurgeProgressPoint& p : progress) {
    out.push_back({{"elapsed_ms", p.elapsed_ms},
                   {"fraction", p.fraction ? nlohmann::json(*p.fraction) : nlohmann::json(nullptr)},
                   {"note", p.note}});
  }
  return out;
}

// The test-step members, present only when set.
void write_step(nlohmann::json& j, const PurgeRecord& r) {
  if (!r.step.empty()) {
    j["step"] = r.step;
  }
  if (!r.phase.empty()) {
    j["phase"] = r.phase;
  }
  if (!r.write_cache_after_purge.get().is_null()) {
    j["write_cache_after_purge"] = r.write_cache_after_purge;
  }
}

}  // namespace

void to_json(nlohmann::json& j, const PurgeRecord& r) {
  if (r.skipped()) {
    j = {{"method", r.method}, {"pts_compliant", false}, {"outcome", "skipped"}, {"description", r.description}};
    write_step(j, r);
    return;
  }
  j = {{"target", r.target},
       {"device_model", r.device_model},
       {"device_serial", r.device_serial},
       {"requested_method", r.requested_method},
       {"method", r.method},
       {"description", r.description},
       {"pts_compliant", r.pts_compliant},
       {"started_utc", r.started_utc},
       {"ended_utc", r.ended_utc},
       {"duration_ns", r.duration_ns},
       {"outcome", r.outcome},
       {"progress", progress_json(r.progress)},
       {"messages", r.messages},
       {"parameters", r.parameters}};
  write_step(j, r);
}

PurgeRecord read_purge(const nlohmann::json& purge) {
  PurgeRecord r;
  r.target = str(purge, "target");
  r.device_model = str(purge, "device_model");
  r.device_serial = str(purge, "device_serial");
  r.requested_method = str(purge, "requested_method");
  r.method = str(purge, "method");
  r.description = str(purge, "description");
  r.pts_compliant = at(purge, "pts_compliant") == true;
  r.started_utc = str(purge, "started_utc");
  r.ended_utc = str(purge, "ended_utc");
  r.duration_ns = count(at(purge, "duration_ns"));
  r.outcome = str(purge, "outcome");
  for (const nlohmann::json& p : array(purge, "progress")) {
    const nlohmann::json& fraction = at(p, "fraction");
    r.progress.push_back({count(at(p, "elapsed_ms")),
                          fraction.is_number() ? std::optional<double>(fraction.get<double>()) : std::nullopt,
                          str(p, "note")});
  }
  for (const nlohmann::json& m : array(purge, "messages")) {
    r.messages.push_back(str(m));
  }
  const nlohmann::json& parameters = at(purge, "parameters");
  if (parameters.is_object()) {
    for (const auto& [key, value] : parameters.items()) {
      r.parameters.emplace(key, str(value));
    }
  }
  r.step = str(purge, "step");
  r.phase = str(purge, "phase");
  r.write_cache_after_purge = Embedded::borrow(at(purge, "write_cache_after_purge"));
  return r;
}

std::vector<PurgeRecord> read_purges(const nlohmann::json& purges) { return read_each(purges, read_purge); }

}  // namespace ptsuite::results
