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
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
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

// The run's clock, on which JournalingExecutor times each executed step (JournalEntry::step_ns),
// and who hears each replayed step's recorded time (the run's observer: RunObserver::step_replayed).
struct JournalTiming {
  std::function<uint64_t()> now_ns;                                       // unset: steps are not timed
  std::function<void(const std::string& id, uint64_t step_ns)> replayed;  // unset: nobody is told
};

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
