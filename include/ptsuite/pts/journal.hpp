// Contract: the run journal, which makes a day-long run survive SIGINT, SIGTERM, kill -9 and
// power loss. Every completed step is written to <dir>/journal/steps/<seq>.json (written,
// fsynced, renamed into place, directory fsynced: util/output_file.hpp) before the run moves
// on. A step is either fully journaled or absent; an interrupted segment is never journaled,
// so a resume runs it again from its start and nothing is half-counted.
//
// JournalingExecutor wraps the real executor. The test logic is deterministic in the step
// results it sees, so on resume it is simply re-run from the top: the k-th step it asks for
// must be the k-th journaled step (same StepId and same request); its recorded result is
// returned (and the inner executor told via replayed()), and only steps past the journal's end
// touch the device. A mismatch means the plan changed (another configuration or ptsuite
// version): the executor refuses with an Error naming the first differing step.
// Each entry carries its SHA-256, chained to the one before (JournalEntry::sha256): an entry
// edited after it was written is refused when the journal is loaded, before anything runs.
// Memory: entries() holds every entry only as seq, id, time and hash, its request and result
// null (its file has them): a loaded entry's bodies are read again from its file when it is
// replayed (read_bodies(), its hash checked again) and dropped once returned, an append()ed
// one's once written. A full-length run journals 10,000+ steps; a resume holds one entry's
// bodies at a time (docs/sim.md, "Through the binary: kill -9 late, then resume").
// Timing (JournalTiming): each executed step's time on the run's clock is journaled with it
// (step_ns, kept with seq, id, time and hash when loaded), and on resume each replayed step's
// recorded time is handed on, so the console's ETA learns from the steps of earlier sessions as
// from its own (eta.hpp).
// Duration (JournalTiming::session): on a real drive each executed step's entry also records
// where the session and the run stood on the steady clock when it was journaled (session_ns,
// run_duration_ns), so that a resume after kill -9 counts the killed session up to its last
// journaled step (durable_run_duration_ns), not only to its last results.json write.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/step_executor.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::pts {

struct JournalEntry {
  uint64_t seq = 0;  // 1-based
  std::string id;    // StepId::text()
  nlohmann::json request;
  nlohmann::json result;
  std::string recorded_utc;
  // The step's time on the run's clock (wall time; a simulated drive's virtual time), as the
  // run's observer measured it; none: not timed (journals of earlier versions, no JournalTiming).
  std::optional<uint64_t> step_ns;
  // Where the session and the run stood on the steady clock when the step was journaled (a real
  // drive's run: JournalTiming::session): this session's time since it started, and the run's
  // duration so far (the earlier sessions' plus session_ns; none when the run's is unknown: a run
  // started by an earlier version). None on a simulated drive (its virtual clock is the run's) and
  // in journals of earlier versions.
  std::optional<uint64_t> session_ns;
  std::optional<uint64_t> run_duration_ns;
  // SHA-256 of the entry (compact JSON without this field) chained to the previous entry's
  // hash ("" for the first); Journal refuses (UsageError, exit 2) an entry that does not match.
  std::string sha256;
};

class Journal {
 public:
  // Opens (creating if needed) <run_dir>/journal/steps and loads every entry in order, checking
  // each one's hash. Throws Error when an entry is unreadable or the sequence has a gap.
  explicit Journal(const OutputDir& run_dir);

  [[nodiscard]] const std::vector<JournalEntry>& entries() const noexcept { return m_entries; }
  void append(JournalEntry entry);  // assigns seq, writes atomically
  // Entry `index` (0-based) with its request and result, read from its file; UsageError when the
  // file no longer holds what the load checked (edited since).
  [[nodiscard]] JournalEntry read_bodies(size_t index) const;
  [[nodiscard]] const std::filesystem::path& steps_dir() const noexcept { return m_steps.path(); }

 private:
  OutputDir m_steps;
  std::vector<JournalEntry> m_entries;
};

// The entry as its file stores it; "sha256" only when set (the hash is taken without it).
void to_json(nlohmann::json& j, const JournalEntry& entry);

// Where a session stands on the steady clock (JournalEntry::session_ns, run_duration_ns).
struct SessionTime {
  uint64_t session_ns = 0;                  // since this session started
  std::optional<uint64_t> run_duration_ns;  // the earlier sessions' plus session_ns; none: unknown
};

// The run's clock, on which JournalingExecutor times each executed step (JournalEntry::step_ns),
// who hears each replayed step's recorded time (the run's observer: RunObserver::step_replayed),
// and where the session stands on the steady clock when a step is journaled.
struct JournalTiming {
  std::function<uint64_t()> now_ns;                                       // unset: steps are not timed
  std::function<void(const std::string& id, uint64_t step_ns)> replayed;  // unset: nobody is told
  std::function<SessionTime()> session;                                   // unset (a simulated drive): not recorded
};

namespace detail {
// The hash stored in an entry file's text when the text is exactly as append() wrote it and its
// hash matches (checked without building the JSON tree: a full-length journal's load parses no
// result); "" otherwise, and the caller checks the entry's canonical form instead.
[[nodiscard]] std::string hash_of_written_text(std::string_view text, const std::string& previous_hash);
}  // namespace detail

// The run's duration as last durably recorded before a resume (pts/run.cpp, a real drive): the
// larger of `document_ns`, results.json's run.duration_ns (the earlier sessions to its last
// write), and the run_duration_ns of the journal's last entry (a session killed after that write
// ran on and journaled steps: its time counts to the last of them). nullopt when the document
// holds none (a run started by an earlier version: unknown). Never a wall-clock difference.
[[nodiscard]] std::optional<uint64_t> durable_run_duration_ns(std::optional<uint64_t> document_ns,
                                                              const std::vector<JournalEntry>& entries);

class JournalingExecutor : public StepExecutor {
 public:
  JournalingExecutor(StepExecutor& inner, Journal& journal, JournalTiming timing = {})
      : m_inner(inner), m_journal(journal), m_timing(std::move(timing)) {}

  nlohmann::json execute(const StepId& id, const StepRequest& request) override;
  void replayed(const StepId& id, const StepRequest& request, const nlohmann::json& result) override;

  [[nodiscard]] uint64_t replayed_count() const noexcept { return m_replayed; }
  [[nodiscard]] uint64_t executed_count() const noexcept { return m_executed; }

 private:
  StepExecutor& m_inner;
  Journal& m_journal;
  JournalTiming m_timing;
  size_t m_next = 0;
  uint64_t m_replayed = 0;
  uint64_t m_executed = 0;
};

}  // namespace ptsuite::pts
