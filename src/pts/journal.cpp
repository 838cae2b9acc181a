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

// SHA-256 over the entry's canonical form (compact JSON, keys sorted, without "sha256") and the
// previous entry's hash, so an entry edited, swapped or moved to another place in the chain is found.
std::string entry_hash(std::string_view canonical_without_hash, const std::string& previous_hash) {
  Sha256 h;
  h.update(previous_hash);
  h.update("\n");
  h.update(canonical_without_hash);
  return to_hex(h.final());
}

}  // namespace

// An entry's file as append() writes it is its canonical form (keys sorted) with
// ,"sha256":"<64 hex>" in its place among the keys: last, or before "step_ns" (the one key that
// sorts after it; a number). Its hash is checked on the text as it stands, no tree built: when it
// matches, the text without that field is byte for byte what was hashed. The stored hash, or ""
// when the file is not in that form or the hash does not match (then the tree decides: check_entry).
std::string detail::hash_of_written_text(std::string_view text, const std::string& previous_hash) {
  constexpr std::string_view k_key = ",\"sha256\":\"";
  constexpr size_t k_field = k_key.size() + 64 + 1;  // the key, the hex digits, the closing quote
  const size_t at = text.rfind(k_key);
  if (at == std::string_view::npos || !text.ends_with("}") || text.size() < at + k_field + 1) {
    return {};
  }
  const std::string_view after = text.substr(at + k_field);  // "}" or ,"step_ns":<digits>}
  constexpr std::string_view k_step = ",\"step_ns\":";
  const bool tail_ok = after == "}" || (after.starts_with(k_step) && after.size() > k_step.size() + 1 &&
                                        std::all_of(after.begin() + static_cast<std::ptrdiff_t>(k_step.size()),
                                                    after.end() - 1, [](char c) { return c >= '0' && c <= '9'; }));
  if (text[at + k_field - 1] != '"' || !tail_ok) {
    return {};
  }
  const std::string stored(text.substr(at + k_key.size(), 64));
  std::string canonical(text.substr(0, at));
  canonical += after;
  return entry_hash(canonical, previous_hash) == stored ? stored : std::string();
}

namespace {

[[noreturn]] void refuse_changed(const fs::path& file) {
  throw UsageError(file.string(),
                   "this journal step was changed after it was written (its SHA-256 does not match); "
                   "the run cannot be resumed from an edited journal: start a new run");
}

// The entry in `file`, its hash checked against the chain (UsageError when it was changed or is
// damaged). With bodies: its request and result too; without, only seq, id, time and hash, and
// the tree of its result is never built (a full-length journal is 10,000+ entries).
JournalEntry read_entry(const fs::path& file, const std::string& previous_hash, bool bodies) {
  JournalEntry entry;
  try {
    const std::string text = read_file(file);
    std::string stored = detail::hash_of_written_text(text, previous_hash);
    json j = parse_json_input(text, file.string(), k_document_json_limits,
                              bodies || stored.empty() ? std::string_view() : std::string_view("result"));
    if (stored.empty()) {  // not as written: its canonical form decides
      stored = j.at("sha256").get<std::string>();
      j.erase("sha256");
      if (entry_hash(j.dump(), previous_hash) != stored) refuse_changed(file);
    }
    entry.sha256 = stored;
    entry.seq = j.at("seq").get<uint64_t>();
    entry.id = j.at("id").get<std::string>();
    if (bodies) {
      entry.request = std::move(j.at("request"));
      entry.result = std::move(j.at("result"));
    }
    entry.recorded_utc = j.value("recorded_utc", "");
    if (j.contains("step_ns")) entry.step_ns = j.at("step_ns").get<uint64_t>();
    if (j.contains("session_ns")) entry.session_ns = j.at("session_ns").get<uint64_t>();
    if (j.contains("run_duration_ns")) entry.run_duration_ns = j.at("run_duration_ns").get<uint64_t>();
  } catch (const json::exception& e) {
    throw UsageError(file.string(),
                     fmt::format("this journal step is damaged ({}); the run cannot be resumed from it", e.what()));
  }
  return entry;
}

}  // namespace

void to_json(json& j, const JournalEntry& entry) {
  j = json{{"seq", entry.seq},
           {"id", entry.id},
           {"request", entry.request},
           {"result", entry.result},
           {"recorded_utc", entry.recorded_utc}};
  if (entry.step_ns) j["step_ns"] = *entry.step_ns;
  if (entry.session_ns) j["session_ns"] = *entry.session_ns;
  if (entry.run_duration_ns) j["run_duration_ns"] = *entry.run_duration_ns;
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
    JournalEntry entry = read_entry(f, m_entries.empty() ? std::string() : m_entries.back().sha256, false);
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
  entry.sha256 = entry_hash(json(entry).dump(), m_entries.empty() ? std::string() : m_entries.back().sha256);
  write_file_atomic(m_steps.file(entry_file_name(entry.seq)), json(entry).dump());
  entry.request = nullptr;  // in its file; never read again in this session (journal.hpp)
  entry.result = nullptr;
  m_entries.push_back(std::move(entry));
}

JournalEntry Journal::read_bodies(size_t index) const {
  const JournalEntry& held = m_entries.at(index);
  const fs::path file = m_steps.path() / entry_file_name(held.seq);
  JournalEntry entry = read_entry(file, index == 0 ? std::string() : m_entries[index - 1].sha256, true);
  if (entry.sha256 != held.sha256 || entry.seq != held.seq) refuse_changed(file);
  return entry;
}

std::optional<uint64_t> durable_run_duration_ns(std::optional<uint64_t> document_ns,
                                                const std::vector<JournalEntry>& entries) {
  if (!document_ns || entries.empty() || !entries.back().run_duration_ns) return document_ns;
  return std::max(*document_ns, *entries.back().run_duration_ns);
}

json JournalingExecutor::execute(const StepId& id, const StepRequest& request) {
  const json request_json = request;
  if (m_next < m_journal.entries().size()) {
    // Read from its file now and dropped once returned: a resume holds one entry's bodies at a time.
    JournalEntry entry = m_journal.read_bodies(m_next);
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
    if (m_timing.replayed && entry.step_ns) m_timing.replayed(entry.id, *entry.step_ns);
    return std::move(entry.result);
  }
  const uint64_t started_ns = m_timing.now_ns ? m_timing.now_ns() : 0;
  json result = m_inner.execute(id, request);
  JournalEntry entry;
  if (m_timing.now_ns) entry.step_ns = m_timing.now_ns() - started_ns;
  if (m_timing.session) {
    const SessionTime now = m_timing.session();
    entry.session_ns = now.session_ns;
    entry.run_duration_ns = now.run_duration_ns;
  }
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
