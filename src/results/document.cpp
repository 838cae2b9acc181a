#include <ptsuite/results/document.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <system_error>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::results {

namespace {

using nlohmann::json;

constexpr auto k_document_kinds = std::to_array<DocumentKindInfo>({
#define PTSUITE_DOCUMENT(id, kind, Record, reader, file, html_file, schema, history, compare, title) \
  {#id, kind, file, html_file, schema, history, compare, title},
#include <ptsuite/results/document_kinds.def>
});

// The readers take the shared tree (records that borrow from it) or a reference to it.
template <typename Reader>
auto read_with(Reader reader, const std::shared_ptr<const json>& source) {
  if constexpr (requires { reader(source); }) {
    return reader(source);
  } else {
    return reader(*source);
  }
}

}  // namespace

std::span<const DocumentKindInfo> document_kinds() { return k_document_kinds; }

const DocumentKindInfo* find_document_kind(std::string_view kind) {
  for (const DocumentKindInfo& info : k_document_kinds) {
    if (info.kind == kind) return &info;
  }
  return nullptr;
}

std::vector<std::string> document_file_names() {
  std::vector<std::string> out;
  for (const DocumentKindInfo& info : k_document_kinds) {
    if (std::find(out.begin(), out.end(), info.file) == out.end()) out.emplace_back(info.file);
  }
  return out;
}

std::optional<std::filesystem::path> document_file_in(const std::filesystem::path& dir) {
  for (const std::string& name : document_file_names()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(dir / name, ec)) return dir / name;
  }
  return std::nullopt;
}

std::string document_kind_names() {
  std::string out;
  for (const DocumentKindInfo& info : k_document_kinds) out += fmt::format("{}{}", out.empty() ? "" : ", ", info.kind);
  return out;
}

Document read_document(std::shared_ptr<const json> source, const std::string& what) {
  const std::string kind = source && source->is_object() ? str(*source, "kind") : std::string();
  Document doc;
  doc.info = find_document_kind(kind);
  if (doc.info == nullptr) {
    throw UsageError(what, fmt::format("not a ptsuite document ({}; this ptsuite reads {})",
                                       kind.empty() ? "it has no \"kind\"" : fmt::format("kind \"{}\"", kind),
                                       document_kind_names()));
  }
#define PTSUITE_DOCUMENT(id, kind_text, Record, reader, file, html_file, schema, history, compare, title)           \
  if (doc.info->name == #id) {                                                                                      \
    doc.record = DocumentRecord(std::in_place_type<Record>,                                                         \
                                read_with([](const auto& j) -> decltype(reader(j)) { return reader(j); }, source)); \
  }
#include <ptsuite/results/document_kinds.def>
  doc.source = std::move(source);
  return doc;
}

Document read_document(json source, const std::string& what) {
  return read_document(std::make_shared<const json>(std::move(source)), what);
}

template <typename Record>
Document make_document(Record record, std::shared_ptr<const json> source) {
  Document doc;
  doc.record = DocumentRecord(std::in_place_type<Record>, std::move(record));
  doc.info = &k_document_kinds.at(doc.record.index() - 1);
  doc.source = std::move(source);
  return doc;
}

#define PTSUITE_DOCUMENT(name, kind, Record, reader, file, html_file, schema, history, compare, title) \
  template Document make_document<Record>(Record, std::shared_ptr<const json>);
#include <ptsuite/results/document_kinds.def>

}  // namespace ptsuite::results
