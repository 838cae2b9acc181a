#include <ptsuite/pts/journal.hpp>

#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::pts {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string entry_file_name(uint64_t seq) { return fmt::format("{:08}.json", seq); }

// SHA-256 over the entry's canonical form (compact JSON, keys sorted) and the previous
// entry's hash, so an entry edited, swapped or moved to another place in the chain is found.
std::string entry_hash(const json& entry_without_hash, const std::string& previous_hash) {
  return sha256_hex(previous_hash + "\n" + entry_without_hash.dump());
}

}  // namespace

void to_json(json& j, const JournalEntry& entry) {
  j = json{{"seq", entry.seq},
           {"id", entry.id},
           {"request", entry.request},
           {"result", entry.result},
           {"recorded_utc", entry.recorded_utc}};
  if (!entry.sha256.empty()) j["sha256"] = entry.sha256;
}

Journal::Journal(const OutputDir& run_dir) : m_steps(run_dir.subdir("journal/steps")) {
  m_steps.create();
  const fs::path& steps_dir = m_steps.path();
  std::vector<fs::path> files;
  for (const fs::directory_entry& e : fs::directory_iterator(steps_dir)) {
    // Leftover temporaries (".<seq>.json.<random>.tmp": util/output_file.hpp) are steps that
    // never completed: ignore them.
    if (e.is_regular_file() && e.path().extension() == ".json") {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    JournalEntry entry;
    try {
      json j = parse_json_input(read_file(f), f.string(), k_document_json_limits);
      const std::string stored = j.at("sha256").get<std::string>();
      j.erase("sha256");
      const std::string previous = m_entries.empty() ? std::string() : m_entries.back().sha256;
      if (entry_hash(j, previous) != stored) {
        throw UsageError(f.string(),
                         "this journal step was changed after it was written (its SHA-256 does not match); "
                         "the run cannot be resumed from an edited journal: start a new run");
      }
      entry.sha256 = stored;
      entry.seq = j.at("seq").get<uint64_t>();
      entry.id = j.at("id").get<std::string>();
      entry.request = j.at("request");
      entry.result = j.at("result");
      entry.recorded_utc = j.value("recorded_utc", "");
    } catch (const json::exception& e) {
      throw UsageError(f.string(),
                       fmt::format("this journal step is damaged ({}); the run cannot be resumed from it", e.what()));
    }
    if (entry.seq != m_entries.size() + 1 || f.filename() != entry_file_name(entry.seq)) {
      throw Error(ExitCode::system,
                  fmt::format("journal {} has a gap or a misnamed entry at {}; the run cannot be resumed",
                              steps_dir.string(), f.filename().string()));
    }
    m_entries.push_back(std::move(entry));
  }
}

void Journal::append(JournalEntry entry) {
  entry.seq = m_entries.size() + 1;
  if (entry.recorded_utc.empty()) {
    entry.recorded_utc = utc_now_iso8601();
  }
  entry.sha256.clear();
  entry.sha256 = entry_hash(json(entry), m_entries.empty() ? std::string() : m_entries.back().sha256);
  write_file_atomic(m_steps.file(entry_file_name(entry.seq)), json(entry).dump());
  entry.request = nullptr;  // in its file; never read again in this session (journal.hpp)
  entry.result = nullptr;
  m_entries.push_back(std::move(entry));
}

json JournalingExecutor::execute(const StepId& id, const StepRequest& request) {
  const json request_json = request;
  if (m_next < m_journal.entries().size()) {
    const JournalEntry& entry = m_journal.entries()[m_next];
    if (entry.id != id.text() || entry.request != request_json) {
      throw Error(
          ExitCode::system,
          fmt::format("cannot resume: journal step #{} is \"{}\" but this run now asks for \"{}\"{}; the "
                      "configuration or the ptsuite version changed since the run started",
                      entry.seq, entry.id, id.text(), entry.id == id.text() ? " with different parameters" : ""));
    }
    ++m_next;
    ++m_replayed;
    m_inner.replayed(id, request, entry.result);
    return entry.result;
  }
  json result = m_inner.execute(id, request);
  JournalEntry entry;
  entry.id = id.text();
  entry.request = request_json;
  entry.result = result;
  m_journal.append(std::move(entry));
  ++m_next;
  ++m_executed;
  return result;
}

void JournalingExecutor::replayed(const StepId& id, const StepRequest& request, const json& result) {
  m_inner.replayed(id, request, result);
}

}  // namespace ptsuite::pts
