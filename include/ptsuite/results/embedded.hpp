// Contract: a sub-document the typed results model keeps in its JSON form: a segment's spec or
// result (pts/segment.hpp writes them), a device health snapshot (device/health.hpp). The
// record's own numbers are typed; these are large, written by the layers that own their types,
// and read by the report through results/json_read.hpp.
// Lifetime: a procedure builds the record with an owned value (Embedded(json)); a reader
// borrows it (Embedded::borrow), pointing into the document it read, which must then outlive
// the typed record - as a std::string_view does. get() of an empty Embedded is null.
#pragma once

#include <memory>

#include <nlohmann/json.hpp>

namespace ptsuite::results {

class Embedded {
 public:
  Embedded() = default;
  explicit Embedded(nlohmann::json owned) : m_owned(std::make_shared<const nlohmann::json>(std::move(owned))) {
    m_value = m_owned.get();
  }
  static Embedded borrow(const nlohmann::json& in_document) {
    Embedded e;
    e.m_value = &in_document;
    return e;
  }
  [[nodiscard]] const nlohmann::json& get() const {
    static const nlohmann::json k_null;
    return m_value != nullptr ? *m_value : k_null;
  }

 private:
  std::shared_ptr<const nlohmann::json> m_owned;  // shared: copies of a record stay cheap
  const nlohmann::json* m_value = nullptr;
};

inline void to_json(nlohmann::json& j, const Embedded& e) { j = e.get(); }

}  // namespace ptsuite::results
