// Run labels (util/labels.hpp).
#include <ptsuite/util/labels.hpp>

#include <fmt/format.h>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>

namespace ptsuite {

namespace {

bool key_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'; }

}  // namespace

std::pair<std::string, std::string> parse_label(std::string_view text, const std::string& option) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    throw UsageError(option, fmt::format("\"{}\" is not key=value (e.g. campaign=q4-pm9a3)", printable(text)));
  }
  const std::string key(text.substr(0, eq));
  const std::string value(text.substr(eq + 1));
  if (key.empty() || key.size() > k_max_label_key_bytes || key[0] < 'a' || key[0] > 'z') {
    throw UsageError(option, fmt::format("label key \"{}\": 1-{} characters, starting with a letter a-z",
                                         printable(key), k_max_label_key_bytes));
  }
  for (const char c : key) {
    if (!key_char(c)) {
      throw UsageError(option, fmt::format("label key \"{}\": only a-z, 0-9, '_', '.' and '-'", printable(key)));
    }
  }
  if (value.empty() || value.size() > k_max_label_value_bytes) {
    throw UsageError(option, fmt::format("label {}: the value must be 1-{} bytes", key, k_max_label_value_bytes));
  }
  for (const char c : value) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      throw UsageError(option, fmt::format("label {}: the value holds a control character", key));
    }
  }
  return {key, value};
}

void add_label(Labels& labels, const std::pair<std::string, std::string>& label, const std::string& option) {
  const auto [it, inserted] = labels.insert(label);
  if (!inserted && it->second != label.second) {
    throw UsageError(option, fmt::format("label {} given twice (\"{}\" and \"{}\")", label.first, printable(it->second),
                                         printable(label.second)));
  }
  if (labels.size() > k_max_labels) {
    throw UsageError(option, fmt::format("more than {} labels", k_max_labels));
  }
}

Labels parse_labels(const std::vector<std::string>& texts, const std::string& option) {
  Labels out;
  for (const std::string& t : texts) add_label(out, parse_label(t, option), option);
  return out;
}

std::string labels_text(const Labels& labels) {
  std::string out;
  for (const auto& [key, value] : labels) out += fmt::format("{}{}={}", out.empty() ? "" : " ", key, value);
  return out;
}

}  // namespace ptsuite
