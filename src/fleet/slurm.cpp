// Slurm's commands for `ptsuite fleet` (fleet/slurm.hpp).
#include <ptsuite/fleet/slurm.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/shell_quote.hpp>
#include <ptsuite/util/subprocess.hpp>
#include <ptsuite/util/text.hpp>

namespace ptsuite::fleet {

namespace {

using nlohmann::json;

std::string first_line_of(const std::string& text) {
  const std::string_view t = trim(text);
  return std::string(t.substr(0, t.find('\n')));
}

// Runs a Slurm command; its stdout when it succeeded.
std::string slurm(const std::vector<std::string>& argv, const std::string& input = "") {
  const ProgramResult r = run_program(argv, input, k_slurm_command_timeout_ns);
  if (r.exit_code == 0) {
    return r.out;
  }
  const std::string why = r.timed_out ? "no answer within 60 s" : first_line_of(r.err.empty() ? r.out : r.err);
  // The controller down or unreachable: a later attempt can succeed.
  if (r.timed_out || why.find("Unable to contact slurm controller") != std::string::npos ||
      why.find("Socket timed out") != std::string::npos) {
    throw Unavailable(fmt::format("{}: Slurm does not answer ({}); retry later", argv[0], why));
  }
  throw SystemError(fmt::format("{} failed (exit {}): {}", argv[0], r.exit_code, why.empty() ? "no message" : why));
}

std::string text_of(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int64_t number_of(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

}  // namespace

std::string job_name_for(const std::string& serial) { return k_job_name_prefix + serial; }

std::optional<std::string> serial_of_job_name(const std::string& name) {
  const std::string prefix(k_job_name_prefix);
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  return name.substr(prefix.size());
}

std::string slurm_time(uint64_t seconds) {
  const uint64_t minutes = (seconds + 59) / 60;
  return fmt::format("{}-{:02}:{:02}:00", minutes / (24 * 60), minutes / 60 % 24, minutes % 60);
}

std::vector<std::string> sbatch_argv(const SbatchRequest& r) {
  std::vector<std::string> argv = {"sbatch",
                                   "--parsable",
                                   "--job-name=" + job_name_for(r.serial),
                                   "--dependency=singleton",
                                   fmt::format("--gres={}:{}:1", r.gres_name, r.serial),
                                   "--requeue",
                                   "--time=" + slurm_time(r.time_limit_s)};
  if (r.signal_lead_s > 0) {
    // B: to the batch step itself (ptsuite, exec'd by the script), not to job steps.
    argv.push_back(fmt::format("--signal=B:USR1@{}", r.signal_lead_s));
  }
  if (!r.partition.empty()) argv.push_back("--partition=" + r.partition);
  if (!r.output.empty()) {
    argv.push_back("--output=" + r.output);
    argv.emplace_back("--open-mode=append");  // a requeued job's log keeps the attempts before it
  }
  if (!r.comment.empty()) argv.push_back("--comment=" + r.comment);
  argv.insert(argv.end(), r.extra_sbatch.begin(), r.extra_sbatch.end());
  return argv;
}

std::string batch_script(const std::vector<std::string>& job_argv) {
  std::string line = "exec";
  for (const std::string& word : job_argv) line += " " + shell_quote(word);
  return "#!/bin/sh\n# ptsuite fleet: the batch step is ptsuite itself (docs/fleet.md)\n" + line + "\n";
}

std::vector<SlurmJob> parse_squeue_json(const std::string& text) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw SystemError(fmt::format("squeue --json printed no JSON ({})", e.what()));
  }
  std::vector<SlurmJob> out;
  const auto jobs = doc.find("jobs");
  if (jobs == doc.end() || !jobs->is_array()) return out;
  for (const json& j : *jobs) {
    SlurmJob job;
    job.id = static_cast<uint64_t>(number_of(j, "job_id"));
    job.name = text_of(j, "name");
    job.state = text_of(j, "job_state");
    job.reason = text_of(j, "state_reason");
    job.comment = text_of(j, "comment");
    job.node = text_of(j, "batch_host");
    if (job.node.empty()) job.node = text_of(j, "nodes");
    job.gres = text_of(j, "tres_per_node");
    job.restarts = static_cast<uint32_t>(number_of(j, "restart_cnt"));
    // A wait status (22.05: exit 3 is 768): the exit code, or 128 + the signal that ended it.
    const int64_t status = number_of(j, "exit_code");
    job.exit_code = static_cast<int>((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f));
    job.submit_time = number_of(j, "submit_time");
    job.start_time = number_of(j, "start_time");
    job.end_time = number_of(j, "end_time");
    job.held = job.state == "SPECIAL_EXIT" || job.reason.rfind("JobHeld", 0) == 0;
    out.push_back(std::move(job));
  }
  return out;
}

uint64_t submit(const SbatchRequest& request) {
  const std::string out = slurm(sbatch_argv(request), batch_script(request.job_argv));
  // --parsable: "JOBID" or "JOBID;CLUSTER".
  const std::string id(trim(out.substr(0, out.find(';'))));
  try {
    size_t used = 0;
    const uint64_t n = std::stoull(id, &used);
    if (used == id.size()) return n;
  } catch (const std::exception&) {
  }
  throw SystemError(fmt::format("sbatch printed no job id (\"{}\")", first_line_of(out)));
}

std::vector<SlurmJob> list_jobs() { return parse_squeue_json(slurm({"squeue", "--json"})); }

void set_comment(uint64_t job_id, const std::string& comment) {
  (void)slurm({"scontrol", "update", fmt::format("JobId={}", job_id), "Comment=" + comment});
}

}  // namespace ptsuite::fleet
