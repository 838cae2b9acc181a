// The run's sessions in results.json (results/run_sessions.hpp): one writer, one reader.
#include <ptsuite/results/run_sessions.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

std::string RunSessions::last_boot_id() const {
  for (auto r = resumes.rbegin(); r != resumes.rend(); ++r) {
    if (!r->boot_id.empty()) return r->boot_id;
  }
  return boot_id;
}

size_t RunSessions::host_restarts() const {
  return static_cast<size_t>(
      std::count_if(resumes.begin(), resumes.end(), [](const ResumeRecord& r) { return r.after_host_restart; }));
}

void to_json(nlohmann::json& j, const ResumeRecord& r) {
  j = nlohmann::json{{"utc", r.utc}, {"journaled_steps", r.journaled_steps}};
  if (!r.boot_id.empty()) j["boot_id"] = r.boot_id;
  j["after_host_restart"] = r.after_host_restart;
}

RunSessions read_run_sessions(const nlohmann::json& run) {
  RunSessions s;
  s.started_utc = str(run, "started_utc");
  s.boot_id = str(run, "boot_id");
  for (const nlohmann::json& r : array(run, "resumes")) {
    ResumeRecord rec;
    rec.utc = str(r, "utc");
    rec.journaled_steps = count(at(r, "journaled_steps"));
    rec.boot_id = str(r, "boot_id");
    rec.after_host_restart = member(r, "after_host_restart") == true;
    s.resumes.push_back(std::move(rec));
  }
  return s;
}

}  // namespace ptsuite::results
