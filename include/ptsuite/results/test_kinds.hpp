// Contract: the tests of the one test list (results/test_kinds.def) as types, so code that does
// something for some tests only (the console headline, the history's metrics, compare's value
// groups) overloads a function on the test's tag instead of comparing ids:
//
//   std::string headline(test_kind::iops, const GridMatrix& m);   // only IOPS has this one
//   template <typename Kind> std::string headline(Kind, const typename Kind::Block&) { return {}; }
//   ... visit_test_kind(test.header.id, [&](auto kind) { return headline(kind, ...); });
//
// Each tag names its test's id, block key and block record (`Block`); an id the list does not
// hold (a results.json from a newer ptsuite) visits test_kind::unknown (Block std::monostate).
// Header-only, no state.
#pragma once

#include <string_view>
#include <utility>

#include <ptsuite/results/test_record.hpp>

namespace ptsuite::results {

namespace test_kind {

// NOLINTBEGIN(readability-identifier-naming): the tags are named as the tests' C++ names
#define PTSUITE_TEST(name, test_id, group, key, Record, schema_def) \
  struct name {                                                     \
    static constexpr std::string_view id = test_id;                 \
    static constexpr std::string_view block_key = key;              \
    using Block = Record;                                           \
  };
#include <ptsuite/results/test_kinds.def>
// NOLINTEND(readability-identifier-naming)

struct unknown {
  static constexpr std::string_view id{};
  static constexpr std::string_view block_key{};
  using Block = std::monostate;
};

}  // namespace test_kind

// Calls `f(tag)` with the tag of test `id`, or `f(test_kind::unknown{})`; returns what f returns
// (the same type for every tag).
template <typename F>
decltype(auto) visit_test_kind(std::string_view id, F&& f) {
#define PTSUITE_TEST(name, test_id, group, key, Record, schema_def) \
  if (id == test_kind::name::id) {                                  \
    return std::forward<F>(f)(test_kind::name{});                   \
  }
#include <ptsuite/results/test_kinds.def>
  return std::forward<F>(f)(test_kind::unknown{});
}

// The test's own block as its kind's record, or null when the record holds another (or none).
template <typename Kind>
const typename Kind::Block* block_of(Kind /*kind*/, const TestRecord& test) {
  return test.block_as<typename Kind::Block>();
}

// The record's block when it is kind `Kind`'s own block (its key: WSAT's "wsat", not
// endurance-write's "endurance", which reads into the same record), else null.
template <typename Kind>
const typename Kind::Block* own_block(Kind kind, const TestRecord& test) {
  return test.block_key == Kind::block_key ? block_of(kind, test) : nullptr;
}

}  // namespace ptsuite::results
