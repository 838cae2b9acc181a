#include <ptsuite/results/write_stream.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

template <typename Sample>  // WriteStreamSample, const (copied) or not (released)
nlohmann::json stream_sample_json(Sample& s) {
  nlohmann::json j = {{"sample", s.sample},     {"end_time_s", s.end_time_s},   {"tgbw_bytes", s.tgbw_bytes},
                      {"tgbw_gb", s.tgbw_gb},   {"drive_fills", s.drive_fills}, {"iops", s.iops},
                      {"mb_per_s", s.mb_per_s}, {"health", take(s.health)},     {"result", take(s.result)}};
  write_response_times(j, s.latency);
  return j;
}

WriteStreamSample read_sample(const nlohmann::json& s) {
  return {count32(at(s, "sample")),
          num(at(s, "end_time_s")),
          count(at(s, "tgbw_bytes")),
          num(at(s, "tgbw_gb")),
          num(at(s, "drive_fills")),
          num(at(s, "iops")),
          num(at(s, "mb_per_s")),
          read_response_times(s),
          Embedded::borrow(at(s, "health")),
          Embedded::borrow(at(s, "result"))};
}

nlohmann::json steady_state_json(const WriteStreamSteadyState& ss) {
  return {{"rule", "steady-state"},      {"round_samples", ss.round_samples},
          {"rounds", ss.rounds},         {"first_check_round", ss.first_check_round},
          {"max_rounds", ss.max_rounds}, {"check_samples", ss.check_samples},
          {"attained", ss.attained},     {"verdict", ss.verdict}};
}

WriteStreamSteadyState read_steady_state(const nlohmann::json& j) {
  WriteStreamSteadyState ss;
  ss.round_samples = count32(at(j, "round_samples"));
  ss.rounds = count(at(j, "rounds"));
  ss.first_check_round = count32(at(j, "first_check_round"));
  ss.max_rounds = count32(at(j, "max_rounds"));
  ss.check_samples = counts32(at(j, "check_samples"));
  ss.attained = at(j, "attained") == true;
  ss.verdict = read_steady_state_verdict(at(j, "verdict"));
  return ss;
}

// One body for both writers: Block is `const WriteStreamBlock` (sub-documents copied) or
// `WriteStreamBlock` (an rvalue being written: released).
template <typename Block>
void write_stream_block(nlohmann::json& j, Block& block) {
  nlohmann::json samples = nlohmann::json::array();
  for (auto& s : block.samples) {
    samples.push_back(stream_sample_json(s));
  }
  j = {{"workload", block.workload},
       {"segment", take(block.segment)},
       {"samples", std::move(samples)},
       {"stop_reason", block.stop_reason},
       {"capacity_bytes", block.capacity_bytes},
       {"target_bytes", block.target_bytes},
       {"time_limit_ns", block.time_limit_ns},
       {"written_bytes", block.written_bytes},
       {"elapsed_ns", block.elapsed_ns}};
  if (block.steady_state) {
    j["steady_state"] = steady_state_json(*block.steady_state);
  }
}

}  // namespace

void to_json(nlohmann::json& j, const WriteStreamBlock& block) { write_stream_block(j, block); }
void to_json(nlohmann::json& j, WriteStreamBlock&& block) { write_stream_block(j, block); }

WriteStreamBlock read_write_stream(const nlohmann::json& block) {
  WriteStreamBlock w;
  w.workload = str(block, "workload");
  w.segment = Embedded::borrow(at(block, "segment"));
  for (const nlohmann::json& s : array(block, "samples")) {
    w.samples.push_back(read_sample(s));
  }
  w.stop_reason = str(block, "stop_reason");
  w.capacity_bytes = count(at(block, "capacity_bytes"));
  w.target_bytes = count(at(block, "target_bytes"));
  w.time_limit_ns = count(at(block, "time_limit_ns"));
  w.written_bytes = count(at(block, "written_bytes"));
  w.elapsed_ns = count(at(block, "elapsed_ns"));
  if (at(block, "steady_state").is_object()) {
    w.steady_state = read_steady_state(at(block, "steady_state"));
  }
  return w;
}

}  // namespace ptsuite::results
