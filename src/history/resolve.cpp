#include <ptsuite/history/resolve.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cctype>

#include <ptsuite/history/location.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::history {

namespace fs = std::filesystem;

namespace {

bool is_directory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

ResolvedRun from_directory(const fs::path& dir, std::optional<RunRecord> record, const std::string& what) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw UsageError(what, fmt::format("{} does not exist (any more)", dir.string()));
  }
  if (!fs::is_regular_file(dir / "results.json", ec)) {
    throw UsageError(what, fmt::format("{} holds no results.json: not a ptsuite run directory", dir.string()));
  }
  return ResolvedRun{dir, dir / "results.json", std::move(record)};
}

}  // namespace

std::optional<int64_t> parse_history_id(const std::string& argument) {
  std::string digits = argument;
  if (!digits.empty() && (digits.front() == '#' || digits.front() == 'h')) {
    digits.erase(0, 1);
  }
  if (digits.empty() || digits.size() > 18 ||
      !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return std::nullopt;
  }
  const int64_t id = std::stoll(digits);
  return id > 0 ? std::optional<int64_t>(id) : std::nullopt;
}

ResolvedRun resolve_run(const std::string& argument, HistoryStore* store) {
  const std::optional<int64_t> id = is_directory(argument) ? std::nullopt : parse_history_id(argument);
  if (!id) {
    return from_directory(argument, std::nullopt, argument);
  }
  if (store == nullptr) {
    throw UsageError(argument, "a history ID, but no history database was given");
  }
  RunRecord record = store->get_or_throw(*id);
  const fs::path dir = record.run_dir;
  return from_directory(dir, std::move(record), fmt::format("history run {}", *id));
}

ResolvedRun resolve_run(const std::string& argument, const HistoryDb& db) {
  if (is_directory(argument) || !parse_history_id(argument)) {
    return resolve_run(argument, static_cast<HistoryStore*>(nullptr));
  }
  HistoryStore store = HistoryStore::open(db);
  return resolve_run(argument, &store);
}

}  // namespace ptsuite::history
