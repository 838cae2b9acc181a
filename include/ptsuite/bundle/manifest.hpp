// Contract: the integrity manifest of a run directory ("bundle"). write_manifest(dir) lists
// every regular file under `dir` (recursively; relative path with '/' separators, size in
// bytes, SHA-256) in dir/MANIFEST.sha256.json, together with the ptsuite version, git
// revision and creation time, and a SHA-256 of the manifest's own content. verify_manifest
// recomputes everything and names each file that changed, is missing, or was added, and
// whether the manifest itself was edited. docs/bundle.md is the user-facing description,
// including what this proves and what it does not (a checksum list; bundle/signature.hpp signs it).
//
// Rules:
//  * Not listed: the manifest itself, the signature over it (k_signature_file_name,
//    bundle/signature.hpp), the temporary files of both ("<name>.tmp", util/output_file.hpp),
//    and directories as such (an added empty directory is not reported).
//  * A bundle holds regular files only: write_manifest refuses symbolic links and special
//    files (UsageError); verify reports one as added (or as changed where a listed file was).
//  * Listed paths must be relative, inside the directory, without "." or ".." components:
//    verify never reads outside `dir`.
//
// Errors: UsageError (exit 2) for a missing or non-directory `dir`, a missing manifest, or a
// malformed one (bad JSON, unknown format or version, bad field, unsafe or duplicate path);
// SystemError (exit 5) when a file cannot be read or the manifest cannot be written.
// Files are hashed in 1 MiB chunks (bounded memory for raw data of any size). Call
// write_manifest once the run has finished writing; not safe against concurrent writers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/util/output_file.hpp>

namespace ptsuite::bundle {

inline constexpr std::string_view k_manifest_file_name = "MANIFEST.sha256.json";
inline constexpr std::string_view k_manifest_format = "ptsuite-bundle-manifest";
inline constexpr int k_manifest_format_version = 1;
// The detached signature over the manifest (bundle/signature.hpp); never listed in it.
inline constexpr std::string_view k_signature_file_name = "SIGNATURE.ed25519.json";

struct ManifestEntry {
  std::string path;  // relative to the bundle directory, '/'-separated
  uint64_t size_bytes = 0;
  std::string sha256;  // 64 lower-case hex digits
};

struct Manifest {
  std::string created_utc;  // ISO 8601, e.g. "2026-11-21T18:19:00Z"
  std::string ptsuite_version;
  std::string git_revision;
  std::vector<ManifestEntry> files;  // sorted by path (byte order)
};

// The manifest of `dir` as it is now, stamped with this build's version and the current time.
Manifest build_manifest(const std::filesystem::path& dir);
// JSON text of `manifest` including its self-checksum ("manifest_sha256").
std::string serialize_manifest(const Manifest& manifest);
// The SHA-256 over the canonical form of the manifest (compact JSON of every field except
// the checksum itself, in a fixed key order): what "manifest_sha256" holds.
std::string manifest_checksum(const Manifest& manifest);
// Parses and validates manifest text; `source` names it in errors. The self-checksum is read
// into `stored_checksum` (not checked here: a mismatch is a verify finding, not bad input).
Manifest parse_manifest(std::string_view text, const std::string& source, std::string* stored_checksum);

// Builds the manifest of `dir` and writes it atomically to dir/MANIFEST.sha256.json.
Manifest write_manifest(const OutputDir& dir);

enum class Problem {
  manifest_edited,  // the manifest's content does not match its own checksum
  changed,          // listed file whose size or SHA-256 differs (or that is no longer a regular file)
  missing,          // listed file that is gone
  added,            // file present but not listed
};
std::string_view to_string(Problem problem);

struct FileProblem {
  Problem kind = Problem::changed;
  std::string path;
  std::string detail;  // e.g. "size 1234 -> 1235 bytes", "SHA-256 differs"
};

struct VerifyReport {
  Manifest manifest;  // as read from the directory
  size_t files_matching = 0;
  std::vector<FileProblem> problems;  // manifest problem first, then by path
  [[nodiscard]] bool intact() const noexcept { return problems.empty(); }
};

VerifyReport verify_manifest(const std::filesystem::path& dir);

}  // namespace ptsuite::bundle
