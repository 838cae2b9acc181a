// Private: the one maker of the write tokens (util/output_file.hpp: OutputPath, OutputDir;
// util/writable_target.hpp: WritableTarget). Included only by the gates: target_gate.cpp
// (a WritableTarget for a target that passed) and output_gate.cpp (outputs that passed);
// .ci/check-writes fails on any other #include of this header.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <memory>
#include <string>

#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/writable_target.hpp>

namespace ptsuite::device {

class GateIssuer {
 public:
  static OutputPath output_path(std::filesystem::path path, std::string option,
                                std::shared_ptr<const ProtectedFiles> protect) {
    return {std::move(path), std::move(option), std::move(protect)};
  }
  static OutputDir output_dir(std::filesystem::path path, std::string option,
                              std::shared_ptr<const ProtectedFiles> protect) {
    return {std::move(path), std::move(option), std::move(protect)};
  }
  static WritableTarget writable_target(std::string path, const struct stat& st) {
    return {std::move(path), st.st_dev, st.st_ino, S_ISBLK(st.st_mode) ? st.st_rdev : 0};
  }
};

}  // namespace ptsuite::device
