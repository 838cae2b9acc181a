// `ptsuite fleet status` rows (fleet/status.hpp).
#include <ptsuite/fleet/status.hpp>

#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>

#include <ptsuite/fleet/progress.hpp>

namespace ptsuite::fleet {

namespace {

// Running first, then waiting (pending or held), then ended ones by their end.
int rank_of(const SlurmJob& j) {
  if (j.state == "RUNNING" || j.state == "COMPLETING" || j.state == "CONFIGURING") return 3;
  if (j.state == "PENDING" || j.state == "SPECIAL_EXIT" || j.state == "REQUEUED" || j.held) return 2;
  return 1;
}

bool more_relevant(const SlurmJob& a, const SlurmJob& b) {
  if (rank_of(a) != rank_of(b)) return rank_of(a) > rank_of(b);
  return a.end_time != b.end_time ? a.end_time > b.end_time : a.id > b.id;
}

std::string campaign_of(const SlurmJob& j) {
  const std::optional<Progress> p = parse_progress_comment(j.comment);
  return p ? p->campaign : "";
}

}  // namespace

std::string job_state_words(const SlurmJob& j) {
  if (j.held) {
    return j.state == "SPECIAL_EXIT" ? fmt::format("held (exit {}: see the job's log)", j.exit_code)
                                     : fmt::format("held ({})", j.reason);
  }
  if (j.state == "PENDING") return j.reason.empty() || j.reason == "None" ? "pending" : "pending (" + j.reason + ")";
  if (j.state == "RUNNING") return "running";
  if (j.state == "COMPLETED") return "done";
  if (j.state == "CANCELLED") return "cancelled";
  if (j.state == "FAILED") return fmt::format("failed (exit {})", j.exit_code);
  if (j.state == "TIMEOUT") return "time limit reached";
  if (j.state == "NODE_FAIL") return "host failed";
  std::string lower = j.state;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

std::vector<DriveStatus> drive_status(const std::vector<SlurmJob>& jobs, const std::vector<history::RunRecord>& runs,
                                      const std::string& campaign) {
  std::map<std::string, DriveStatus> rows;  // by serial
  std::map<std::string, const SlurmJob*> chosen;
  for (const SlurmJob& j : jobs) {
    const std::optional<std::string> serial = serial_of_job_name(j.name);
    if (!serial || (!campaign.empty() && campaign_of(j) != campaign)) continue;
    ++rows[*serial].jobs;
    const SlurmJob*& best = chosen[*serial];
    if (best == nullptr || more_relevant(j, *best)) best = &j;
  }
  for (const auto& [serial, job] : chosen) {
    DriveStatus& s = rows[serial];
    s.serial = serial;
    s.job_id = job->id;
    s.host = job->node;
    s.state = job_state_words(*job);
    s.requeues = job->restarts;
    if (const std::optional<Progress> p = parse_progress_comment(job->comment)) {
      s.campaign = p->campaign;
      s.step = p->steps > 0 ? fmt::format("{}/{}", p->step, p->steps) : "";
      s.test = p->test;
      s.eta_utc = job->state == "RUNNING" ? p->eta_utc : "";
    }
  }
  // The history: runs oldest first, so the last one seen per serial is the latest.
  for (const history::RunRecord& r : runs) {
    if (r.device_serial.empty()) continue;
    const auto label = r.labels.find("campaign");
    const std::string run_campaign = label == r.labels.end() ? "" : label->second;
    if (!campaign.empty() && run_campaign != campaign && rows.count(r.device_serial) == 0) continue;
    DriveStatus& s = rows[r.device_serial];
    s.serial = r.device_serial;
    s.model = r.device_model;
    if (s.host.empty()) s.host = r.host;
    if (s.campaign.empty()) s.campaign = run_campaign;
    if (campaign.empty() || run_campaign == campaign) {
      s.verdict = r.compliance_summary;
      s.history_id = r.id;
      if (s.job_id == 0) s.state = r.status == "complete" ? "done" : r.status;
    }
  }
  std::vector<DriveStatus> out;
  for (auto& [serial, s] : rows) out.push_back(std::move(s));
  return out;
}

void to_json(nlohmann::json& j, const DriveStatus& s) {
  j = nlohmann::json{{"serial", s.serial},     {"campaign", s.campaign}, {"model", s.model},
                     {"host", s.host},         {"job_id", s.job_id},     {"state", s.state},
                     {"requeues", s.requeues}, {"step", s.step},         {"test", s.test},
                     {"eta_utc", s.eta_utc},   {"verdict", s.verdict},   {"history_id", s.history_id},
                     {"jobs", s.jobs}};
}

}  // namespace ptsuite::fleet
