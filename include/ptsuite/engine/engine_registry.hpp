// Contract: engines by name. list_engines() says which exist and whether each can run on this
// machine (and why not); create_engine() builds one or throws UsageError("--engine", ...)
// listing the available names. Default: "libaio".
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/engine/io_engine.hpp>

namespace ptsuite::engine {

inline constexpr std::string_view k_default_engine = "libaio";

struct EngineInfo {
  std::string name;
  std::string description;
  bool available = false;
  std::string unavailable_reason;  // empty when available
};

std::vector<EngineInfo> list_engines();
std::unique_ptr<IoEngine> create_engine(std::string_view name);

}  // namespace ptsuite::engine
