#include <ptsuite/bundle/manifest.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/version.hpp>

namespace ptsuite::bundle {

namespace fs = std::filesystem;
using ordered_json = nlohmann::ordered_json;

namespace {

// Files of the bundle that the manifest cannot list: itself, the signature over it
// (bundle/signature.hpp), and the temporary files an interrupted atomic write leaves behind.
bool is_unlisted_name(const std::string& name) {
  for (const std::string_view own : {k_manifest_file_name, k_signature_file_name}) {
    if (name == own || name == std::string(own) + ".tmp") {
      return true;
    }
  }
  return false;
}

bool is_hex_digest(std::string_view s) {
  return s.size() == 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A listed path is safe when it is relative, non-empty and made only of normal components,
// so that dir / path always stays inside dir.
bool is_safe_relative_path(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.find('\0') != std::string_view::npos) {
    return false;
  }
  size_t start = 0;
  while (start <= path.size()) {
    const size_t slash = path.find('/', start);
    const std::string_view part =
        path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (part.empty() || part == "." || part == "..") {
      return false;
    }
    if (slash == std::string_view::npos) {
      break;
    }
    start = slash + 1;
  }
  return true;
}

void require_directory(const fs::path& dir) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (ec || !fs::exists(st)) {
    throw UsageError(dir.string(), "no such directory");
  }
  if (!fs::is_directory(st)) {
    throw UsageError(dir.string(), "not a directory");
  }
}

struct FoundFile {
  bool regular = false;
  uint64_t size_bytes = 0;
  std::string kind;  // for non-regular entries: "symbolic link", "special file"
};

// Every non-directory entry under `dir` except the manifest and its temporary file, keyed by
// '/'-separated relative path. Symbolic links are not followed.
std::map<std::string, FoundFile> scan_directory(const fs::path& dir) {
  std::map<std::string, FoundFile> found;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec);
  if (ec) {
    throw SystemError("cannot list " + dir.string(), ec.value());
  }
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) {
      throw SystemError("cannot list " + dir.string(), ec.value());
    }
    const fs::path relative = it->path().lexically_relative(dir);
    const std::string name = relative.generic_string();
    if (is_unlisted_name(name)) {
      continue;
    }
    const fs::file_status st = it->symlink_status(ec);
    if (ec) {
      throw SystemError("cannot stat " + it->path().string(), ec.value());
    }
    if (fs::is_directory(st)) {
      continue;
    }
    FoundFile file;
    if (fs::is_regular_file(st)) {
      file.regular = true;
      file.size_bytes = it->file_size(ec);
      if (ec) {
        throw SystemError("cannot stat " + it->path().string(), ec.value());
      }
    } else {
      file.kind = fs::is_symlink(st) ? "symbolic link" : "special file";
    }
    found.emplace(name, std::move(file));
  }
  if (ec) {
    throw SystemError("cannot list " + dir.string(), ec.value());
  }
  return found;
}

ordered_json to_json(const ManifestEntry& e) {
  return ordered_json{{"path", e.path}, {"size_bytes", e.size_bytes}, {"sha256", e.sha256}};
}

// The manifest's members in their fixed order, and "manifest_sha256" last when `checksum` is
// given (the checksum is taken over the form without it).
ordered_json to_json(const Manifest& m, const std::string* checksum = nullptr) {
  ordered_json files = ordered_json::array();
  for (const ManifestEntry& e : m.files) {
    files.push_back(to_json(e));
  }
  ordered_json j{
      {"format", k_manifest_format},  {"format_version", k_manifest_format_version}, {"algorithm", "sha256"},
      {"created_utc", m.created_utc}, {"ptsuite_version", m.ptsuite_version},        {"git_revision", m.git_revision},
      {"files", std::move(files)}};
  if (checksum != nullptr) {
    j["manifest_sha256"] = *checksum;
  }
  return j;
}

template <typename T>
T required_field(const nlohmann::json& object, const char* key, const std::string& source) {
  const auto it = object.find(key);
  if (it == object.end()) {
    throw UsageError(source, fmt::format("malformed manifest: missing \"{}\"", key));
  }
  try {
    return it->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw UsageError(source, fmt::format("malformed manifest: \"{}\" has the wrong type", key));
  }
}

}  // namespace

std::string_view to_string(Problem problem) {
  switch (problem) {
    case Problem::manifest_edited:
      return "edited";
    case Problem::changed:
      return "changed";
    case Problem::missing:
      return "missing";
    case Problem::added:
      return "added";
  }
  return "?";
}

Manifest build_manifest(const fs::path& dir) {
  require_directory(dir);
  Manifest m;
  m.created_utc = utc_now_iso8601();
  m.ptsuite_version = std::string(version());
  m.git_revision = std::string(git_revision());
  for (const auto& [name, file] : scan_directory(dir)) {
    if (!file.regular) {
      throw UsageError(dir.string(), fmt::format("{} is a {}; a bundle may hold regular files only", name, file.kind));
    }
    m.files.push_back({name, file.size_bytes, sha256_file_hex(dir / fs::path(name))});
  }
  return m;
}

std::string manifest_checksum(const Manifest& manifest) {
  try {
    return sha256_hex(to_json(manifest).dump());
  } catch (const nlohmann::json::type_error&) {
    throw UsageError("bundle", "a file name in the bundle is not valid UTF-8; rename it");
  }
}

std::string serialize_manifest(const Manifest& manifest) {
  const std::string checksum = manifest_checksum(manifest);
  return to_json(manifest, &checksum).dump(2) + "\n";
}

Manifest parse_manifest(std::string_view text, const std::string& source, std::string* stored_checksum) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(source, fmt::format("malformed manifest: not valid JSON (byte {})", e.byte));
  }
  if (!j.is_object()) {
    throw UsageError(source, "malformed manifest: not a JSON object");
  }
  if (required_field<std::string>(j, "format", source) != k_manifest_format) {
    throw UsageError(source, fmt::format("not a ptsuite bundle manifest (format is not \"{}\")", k_manifest_format));
  }
  const int format_version = required_field<int>(j, "format_version", source);
  if (format_version != k_manifest_format_version) {
    throw UsageError(source, fmt::format("unsupported manifest format_version {} (this ptsuite reads {})",
                                         format_version, k_manifest_format_version));
  }
  if (required_field<std::string>(j, "algorithm", source) != "sha256") {
    throw UsageError(source, "malformed manifest: algorithm must be \"sha256\"");
  }
  Manifest m;
  m.created_utc = required_field<std::string>(j, "created_utc", source);
  m.ptsuite_version = required_field<std::string>(j, "ptsuite_version", source);
  m.git_revision = required_field<std::string>(j, "git_revision", source);
  const std::string checksum = required_field<std::string>(j, "manifest_sha256", source);
  if (!is_hex_digest(checksum)) {
    throw UsageError(source, "malformed manifest: manifest_sha256 is not 64 lower-case hex digits");
  }
  const auto files = j.find("files");
  if (files == j.end() || !files->is_array()) {
    throw UsageError(source, "malformed manifest: \"files\" must be an array");
  }
  std::set<std::string> seen;
  for (const nlohmann::json& entry : *files) {
    if (!entry.is_object()) {
      throw UsageError(source, "malformed manifest: a \"files\" entry is not an object");
    }
    ManifestEntry e;
    e.path = required_field<std::string>(entry, "path", source);
    if (!entry.contains("size_bytes") || !entry["size_bytes"].is_number_unsigned()) {
      throw UsageError(source, "malformed manifest: size_bytes must be a non-negative integer");
    }
    e.size_bytes = entry["size_bytes"].get<uint64_t>();
    e.sha256 = required_field<std::string>(entry, "sha256", source);
    if (!is_safe_relative_path(e.path)) {
      throw UsageError(source, fmt::format("malformed manifest: unsafe path \"{}\"", e.path));
    }
    if (!is_hex_digest(e.sha256)) {
      throw UsageError(source, fmt::format("malformed manifest: bad sha256 for \"{}\"", e.path));
    }
    if (!seen.insert(e.path).second) {
      throw UsageError(source, fmt::format("malformed manifest: \"{}\" is listed twice", e.path));
    }
    m.files.push_back(std::move(e));
  }
  if (stored_checksum != nullptr) {
    *stored_checksum = checksum;
  }
  return m;
}

Manifest write_manifest(const OutputDir& dir) {
  Manifest m = build_manifest(dir.path());
  write_file_atomic(dir.file(std::string(k_manifest_file_name)), serialize_manifest(m));
  return m;
}

VerifyReport verify_manifest(const fs::path& dir) {
  require_directory(dir);
  const fs::path manifest_path = dir / std::string(k_manifest_file_name);
  std::error_code ec;
  if (!fs::is_regular_file(manifest_path, ec)) {
    throw UsageError(dir.string(),
                     fmt::format("no {} in this directory (not a ptsuite bundle?)", k_manifest_file_name));
  }
  VerifyReport report;
  std::string stored_checksum;
  report.manifest = parse_manifest(read_file(manifest_path), manifest_path.string(), &stored_checksum);
  if (manifest_checksum(report.manifest) != stored_checksum) {
    report.problems.push_back({Problem::manifest_edited, std::string(k_manifest_file_name),
                               "the manifest does not match its own checksum: it was edited after it was written"});
  }

  std::map<std::string, FoundFile> found = scan_directory(dir);
  std::vector<FileProblem> file_problems;
  for (const ManifestEntry& e : report.manifest.files) {
    const auto it = found.find(e.path);
    if (it == found.end()) {
      file_problems.push_back({Problem::missing, e.path, "listed in the manifest, not found"});
      continue;
    }
    const FoundFile file = it->second;
    found.erase(it);
    if (!file.regular) {
      file_problems.push_back({Problem::changed, e.path, "now a " + file.kind + ", was a regular file"});
    } else if (file.size_bytes != e.size_bytes) {
      file_problems.push_back(
          {Problem::changed, e.path, fmt::format("size {} -> {} bytes", e.size_bytes, file.size_bytes)});
    } else if (sha256_file_hex(dir / fs::path(e.path)) != e.sha256) {
      file_problems.push_back({Problem::changed, e.path, "content differs (SHA-256 mismatch, same size)"});
    } else {
      ++report.files_matching;
    }
  }
  for (const auto& [name, file] : found) {
    file_problems.push_back(
        {Problem::added, name,
         file.regular ? "not listed in the manifest" : "not listed in the manifest (" + file.kind + ")"});
  }
  std::stable_sort(file_problems.begin(), file_problems.end(),
                   [](const FileProblem& a, const FileProblem& b) { return a.path < b.path; });
  report.problems.insert(report.problems.end(), file_problems.begin(), file_problems.end());
  return report;
}

}  // namespace ptsuite::bundle
