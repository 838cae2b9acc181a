// Parsing tracefs `format` files (capture/tracepoint_format.hpp).
#include <ptsuite/capture/tracepoint_format.hpp>

#include <charconv>
#include <cstring>

#include <ptsuite/util/text.hpp>

namespace ptsuite::capture {

namespace {

// The number after "key:" in `line` ("offset:16;"), nullopt when missing.
std::optional<uint32_t> number_after(std::string_view line, std::string_view key) {
  const size_t at = line.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const char* begin = line.data() + at + key.size();
  while (begin < line.data() + line.size() && *begin == ' ') ++begin;
  uint32_t value = 0;
  const auto [ptr, ec] = std::from_chars(begin, line.data() + line.size(), value);
  if (ec != std::errc() || ptr == begin) return std::nullopt;
  return value;
}

// "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;" -> nr_sector.
std::optional<TracepointField> parse_field(std::string_view line) {
  const size_t start = line.find("field:");
  const size_t end = line.find(';');
  if (start == std::string_view::npos || end == std::string_view::npos || end < start) return std::nullopt;
  std::string_view decl = trim(line.substr(start + 6, end - start - 6));
  if (decl.starts_with("__data_loc")) return std::nullopt;  // dynamic strings: not used
  if (const size_t bracket = decl.find('['); bracket != std::string_view::npos) decl = decl.substr(0, bracket);
  const size_t space = decl.find_last_of(" *");
  const std::string_view name = space == std::string_view::npos ? decl : decl.substr(space + 1);
  const auto offset = number_after(line, "offset:");
  const auto size = number_after(line, "size:");
  if (name.empty() || !offset || !size) return std::nullopt;
  return TracepointField{std::string(name), *offset, *size, number_after(line, "signed:").value_or(0) != 0};
}

}  // namespace

const TracepointField* TracepointFormat::field(std::string_view wanted) const {
  for (const TracepointField& f : fields) {
    if (f.name == wanted) return &f;
  }
  return nullptr;
}

std::optional<TracepointFormat> parse_tracepoint_format(std::string_view text) {
  TracepointFormat format;
  bool have_id = false;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    const std::string_view t = trim(line);
    if (t.starts_with("name:")) {
      format.name = std::string(trim(t.substr(5)));
    } else if (t.starts_with("ID:")) {
      if (const auto id = number_after(t, "ID:")) {
        format.id = *id;
        have_id = true;
      }
    } else if (t.starts_with("field:")) {
      if (auto f = parse_field(t)) format.fields.push_back(std::move(*f));
    }
  }
  if (!have_id || format.fields.empty()) return std::nullopt;
  return format;
}

uint64_t read_unsigned(const uint8_t* raw, size_t raw_size, const TracepointField& f) {
  if (f.size == 0 || f.size > 8 || static_cast<size_t>(f.offset) + f.size > raw_size) return 0;
  uint64_t v = 0;
  std::memcpy(&v, raw + f.offset, f.size);  // host order: x86-64 and arm64 are little-endian
  return v;
}

std::string_view read_chars(const uint8_t* raw, size_t raw_size, const TracepointField& f) {
  if (static_cast<size_t>(f.offset) + f.size > raw_size) return {};
  const char* p = reinterpret_cast<const char*>(raw + f.offset);
  return {p, strnlen(p, f.size)};
}

}  // namespace ptsuite::capture
