#include <ptsuite/util/json_input.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <vector>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/fd.hpp>
#include <ptsuite/util/printable.hpp>

namespace ptsuite {

namespace {

using nlohmann::json;

std::string size_text(size_t bytes) { return fmt::format("{} MiB", bytes >> 20); }

// A SAX handler that builds nothing: depth and duplicate keys, and the first problem.
class LimitCheck : public nlohmann::json_sax<json> {
 public:
  explicit LimitCheck(const JsonLimits& limits) : m_limits(limits) {}
  std::string problem;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return open(); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    if (!m_limits.reject_duplicate_keys || m_keys.empty()) return true;
    if (!m_keys.back().insert(k).second) {
      problem = fmt::format("the key \"{}\" appears twice in one object", printable(std::string_view(k).substr(0, 80)));
      return false;
    }
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    problem = fmt::format("not valid JSON at byte {}: {}", position, e.what());
    return false;
  }

 private:
  bool open() {
    if (++m_depth > m_limits.max_depth) {
      problem = fmt::format("nesting deeper than {} levels", m_limits.max_depth);
      return false;
    }
    if (m_limits.reject_duplicate_keys) m_keys.emplace_back();
    return true;
  }
  bool close() {
    --m_depth;
    if (m_limits.reject_duplicate_keys && !m_keys.empty()) m_keys.pop_back();
    return true;
  }

  const JsonLimits& m_limits;
  size_t m_depth = 0;
  std::vector<std::set<std::string>> m_keys;
};

}  // namespace

std::string read_input_file(const std::filesystem::path& path, size_t max_bytes, const std::string& source_name) {
  // Messages name the path; a source that is the path itself is not repeated in front of it.
  const std::string source = source_name == path.string() ? std::string() : source_name;
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) {
    throw UsageError(source, fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
  }
  std::string out;
  std::vector<char> chunk(1 << 16);
  for (;;) {
    const ssize_t n = ::read(fd.get(), chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw UsageError(source, fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
    }
    if (n == 0) return out;
    out.append(chunk.data(), static_cast<size_t>(n));
    if (out.size() > max_bytes) {
      throw UsageError(source, fmt::format("{} is larger than {}, more than any input of this kind can be",
                                           path.string(), size_text(max_bytes)));
    }
  }
}

json parse_json_input(std::string_view text, const std::string& source, const JsonLimits& limits,
                      std::string_view drop_key) {
  if (text.size() > limits.max_bytes) {
    throw UsageError(source, fmt::format("{} bytes of JSON is more than {}", text.size(), size_text(limits.max_bytes)));
  }
  LimitCheck check(limits);
  if (!json::sax_parse(text, &check) || !check.problem.empty()) {
    throw UsageError(source, check.problem.empty() ? std::string("not valid JSON") : check.problem);
  }
  if (drop_key.empty()) return json::parse(text);
  // A key event answered with false drops the key and its value: the value is parsed but never
  // kept, so the tree holds only what the reader wants.
  const json::parser_callback_t keep = [drop_key](int /*depth*/, json::parse_event_t event, json& parsed) {
    return !(event == json::parse_event_t::key && parsed.is_string() &&
             parsed.get_ref<const std::string&>() == drop_key);
  };
  return json::parse(text, keep);
}

json load_json_input(const std::filesystem::path& path, const std::string& source, const JsonLimits& limits) {
  return parse_json_input(read_input_file(path, limits.max_bytes, source), source, limits);
}

}  // namespace ptsuite
