// Contract: reading and writing whole files in tests, one copy for every test source (in a
// unity build the test sources share translation units, so two file-local copies of the same
// helper would collide; lint.unity checks it).
//
//   write_file(dir / "a/b.json", "{}");          // creates a/, truncates b.json
//   std::string text = file_text(path);          // "" when the file cannot be read
//   nlohmann::json doc = load_json(path);        // throws nlohmann::json::parse_error
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace ptsuite::test_support {

// Creates the parent directories, then writes content (binary, truncating).
void write_file(const std::filesystem::path& path, const std::string& content);
// The whole file as it is on disk; "" when it cannot be opened.
std::string file_text(const std::string& path);
// The file parsed as JSON.
nlohmann::json load_json(const std::string& path);

}  // namespace ptsuite::test_support
