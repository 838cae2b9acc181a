// Contract: a sub-document the typed results model keeps in its JSON form: a segment's spec or
// result (pts/segment.hpp writes them), a device health snapshot (device/health.hpp). The
// record's own numbers are typed; these are large, written by the layers that own their types,
// and read by the report through results/json_read.hpp.
// Lifetime: a procedure builds the record with an owned value (Embedded(json)); a reader
// borrows it (Embedded::borrow), pointing into the document it read, which must then outlive
// the typed record - as a std::string_view does. get() of an empty Embedded is null.
// Writing: to_json(j, const Embedded&) copies; a record written as an rvalue (json(std::move(
// record)), as pts writes what it just built) hands its owned values over with release()
// instead, so a large sub-document (a Round's segment results) is never held twice.
#pragma once

#include <memory>

#include <nlohmann/json.hpp>

namespace ptsuite::results {

class Embedded {
 public:
  Embedded() = default;
  explicit Embedded(nlohmann::json owned) : m_owned(std::make_shared<nlohmann::json>(std::move(owned))) {
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
  // The value, moved out when this is the only owner of an owned value (this then reads null),
  // copied when it is borrowed or shared with a copy of the record.
  [[nodiscard]] nlohmann::json release() {
    if (m_owned && m_owned.use_count() == 1) {
      nlohmann::json out = std::move(*m_owned);
      m_owned.reset();
      m_value = nullptr;
      return out;
    }
    return get();
  }

 private:
  std::shared_ptr<nlohmann::json> m_owned;  // shared: copies of a record stay cheap
  const nlohmann::json* m_value = nullptr;
};

inline void to_json(nlohmann::json& j, const Embedded& e) { j = e.get(); }

// For the writers of records with both a copying (const&) and a releasing (&&) to_json: one
// body, instantiated for `const Embedded` and `Embedded`.
inline nlohmann::json take(const Embedded& e) { return e.get(); }
inline nlohmann::json take(Embedded& e) { return e.release(); }

}  // namespace ptsuite::results
