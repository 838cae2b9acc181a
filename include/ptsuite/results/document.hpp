// Contract: any ptsuite document, typed: the kind it says it is (one line of the document kinds
// list, results/document_kinds.def) and its record, read once from the parsed tree. What `ptsuite
// report`, `verify`, `sign`, `history add`, `compare` and the end of every run (lifecycle/
// finish_run.hpp) take, so that a new kind is one line of the list plus its record, renderers,
// history record and (optionally) compare extractor, never a new branch in a command.
//   document_kinds()       the list, in its order (name, kind, file names, schema, history, compare)
//   find_document_kind()   a kind by its "kind" member, or null
//   document_file_in()     the document file a directory holds (any kind's file name)
//   read_document()        the tree (shared, never copied) read into the kind's record;
//                          UsageError naming `what` for a document of no listed kind
//   Document::visit()      calls f(record) with the kind's record type
// The records borrow from the tree where their readers do (RunDocument, ScenarioDocument): the
// Document owns it, so it is self-contained and cheap to move; copies share the same immutable
// tree. Tolerant like every results reader: a partial document reads with defaults. Thread-safe.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/app_run.hpp>
#include <ptsuite/results/campaign.hpp>
#include <ptsuite/results/comparison.hpp>
#include <ptsuite/results/io_characterization.hpp>
#include <ptsuite/results/replay.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/scenario_document.hpp>

namespace ptsuite::results {

struct DocumentKindInfo {
  std::string_view name;       // "app_run"
  std::string_view kind;       // "ptsuite.app_run"
  std::string_view file;       // "results.json"
  std::string_view html_file;  // "report.html"
  std::string_view schema;     // "app": pts/schema/app.schema.json
  bool history = false;        // `history add` records it
  bool compare = false;        // `compare` overlays it
  std::string_view title;      // "application run"
};

std::span<const DocumentKindInfo> document_kinds();
const DocumentKindInfo* find_document_kind(std::string_view kind);
// "ptsuite.results, ptsuite.scenario, ..." (for messages).
std::string document_kind_names();
// The document file names of the list, each once, in the list's order ("results.json",
// "campaign.json", "compare.json"): the files `report DIR`, `verify`, `sign` and `history add`
// look for in a directory.
std::vector<std::string> document_file_names();
// The first of document_file_names() that is a regular file in `dir`, or nullopt.
std::optional<std::filesystem::path> document_file_in(const std::filesystem::path& dir);

// Every record of the list, in its order.
// clang-format off
using DocumentRecord = std::variant<std::monostate
#define PTSUITE_DOCUMENT(name, kind, Record, reader, file, html_file, schema, history, compare, title) , Record
#include <ptsuite/results/document_kinds.def>
>;
// clang-format on

struct Document {
  const DocumentKindInfo* info = nullptr;
  std::shared_ptr<const nlohmann::json> source;  // the parsed tree the record was read from
  DocumentRecord record;

  template <typename T>
  [[nodiscard]] const T* as() const {
    return std::get_if<T>(&record);
  }
  // f(const Record&) for the kind's record; f must accept every record of the list.
  template <typename F>
  auto visit(F&& f) const {
    using Result = std::invoke_result_t<F&, const std::variant_alternative_t<1, DocumentRecord>&>;
    return std::visit(
        [&](const auto& r) -> Result {
          if constexpr (std::is_same_v<std::decay_t<decltype(r)>, std::monostate>) {
            throw std::logic_error("an empty results::Document was visited");
          } else {
            return f(r);
          }
        },
        record);
  }
};

Document read_document(std::shared_ptr<const nlohmann::json> source, const std::string& what);
Document read_document(nlohmann::json source, const std::string& what);
// A typed record already in memory with the tree it was written as (a run's outcome: nothing is
// read back). `source` must be the record's own serialization.
template <typename Record>
Document make_document(Record record, std::shared_ptr<const nlohmann::json> source);

}  // namespace ptsuite::results
