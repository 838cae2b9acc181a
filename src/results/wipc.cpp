#include <ptsuite/results/wipc.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

template <typename Pass>  // WipcPass, const (copied) or not (released)
void write_pass(nlohmann::json& j, Pass& p) {
  j["block_size_bytes"] = p.block_size_bytes;
  j["capacity_multiple"] = p.capacity_multiple;
  j["bytes_target"] = p.bytes_target;
  j["spec"] = take(p.spec);
  j["result"] = take(p.result);
}

template <typename Wipc>  // WipcRecord, const (copied) or not (released)
void write_wipc(nlohmann::json& j, Wipc& w) {
  j = {{"kind", "wipc"}, {"phase", w.phase}};
  write_pass(j, w.pass);
  if (w.random_pass) {
    write_pass(j["random_pass"], *w.random_pass);
  }
}

WipcPass read_pass(const nlohmann::json& j) {
  return {count(at(j, "block_size_bytes")), num(at(j, "capacity_multiple")), count(at(j, "bytes_target")),
          Embedded::borrow(at(j, "spec")), Embedded::borrow(at(j, "result"))};
}

}  // namespace

std::optional<uint64_t> WipcPass::written_bytes() const {
  const nlohmann::json& bytes = at(result.get(), {"summary", "write", "bytes"});
  return bytes.is_number_unsigned() ? std::optional<uint64_t>(bytes.get<uint64_t>()) : std::nullopt;
}

void to_json(nlohmann::json& j, const WipcRecord& w) { write_wipc(j, w); }
void to_json(nlohmann::json& j, WipcRecord&& w) { write_wipc(j, w); }

WipcRecord read_wipc(const nlohmann::json& wipc) {
  WipcRecord w;
  w.phase = str(wipc, "phase");
  w.pass = read_pass(wipc);
  if (at(wipc, "random_pass").is_object()) {
    w.random_pass = read_pass(at(wipc, "random_pass"));
  }
  return w;
}

std::vector<WipcRecord> read_wipcs(const nlohmann::json& preconditioning) {
  return read_each(preconditioning, read_wipc);
}

}  // namespace ptsuite::results
