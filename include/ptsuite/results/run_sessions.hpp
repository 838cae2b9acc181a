// Contract: the sessions of a run as results.json's "run" block records them: when it started
// and on which boot of the host (util/host_boot.hpp), and one ResumeRecord per `ptsuite resume`,
// with the steps already journaled and whether the host restarted since the run last ran (a
// reboot or a power loss: the drive's state after a power cut is not the state the journal saw,
// so the report discloses it). pts writes each ResumeRecord through to_json; the report reads
// the block through read_run_sessions(), which tolerates documents of earlier versions (no boot
// IDs: "" and after_host_restart false).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::results {

struct ResumeRecord {
  std::string utc;
  uint64_t journaled_steps = 0;
  std::string boot_id;              // "" when not known
  bool after_host_restart = false;  // the boot ID differs from the run's previous session's
};

struct RunSessions {
  std::string started_utc;
  std::string boot_id;  // of the session that started the run
  std::vector<ResumeRecord> resumes;

  // The boot ID of the latest session on record ("" when none was recorded).
  [[nodiscard]] std::string last_boot_id() const;
  [[nodiscard]] size_t host_restarts() const;
};

void to_json(nlohmann::json& j, const ResumeRecord& r);
RunSessions read_run_sessions(const nlohmann::json& run);

}  // namespace ptsuite::results
