// Pairing block events into records (capture/assembler.hpp) and characterizing records
// (capture/characterize.hpp), on hand-made events whose answer is known.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <ptsuite/capture/assembler.hpp>
#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/results/io_characterization.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::capture {
namespace {

BlockEvent ev(EventKind kind, uint64_t t, uint64_t sector, uint32_t bytes, IoOp op = IoOp::read, uint32_t pid = 0) {
  BlockEvent e;
  e.kind = kind;
  e.time_ns = t;
  e.sector = sector;
  e.bytes = bytes;
  e.op = op;
  e.pid = pid;
  return e;
}

struct Collected {
  std::vector<IoRecord> records;
  Assembler::Sink sink() {
    return [this](const IoRecord& r) { records.push_back(r); };
  }
};

TEST(CaptureAssembler, PairsQueueIssueCompleteAndEmitsInIssueOrder) {
  Collected out;
  Assembler a({}, out.sink());
  BlockEvent q = ev(EventKind::queue, 100, 8, 4096, IoOp::write, 77);
  std::memcpy(q.comm.data(), "postgres", 8);
  a.add(q);
  a.add(ev(EventKind::issue, 150, 8, 4096, IoOp::write, 0));   // issued by a kworker
  a.add(ev(EventKind::issue, 160, 64, 8192, IoOp::read, 88));  // no Q seen: its own pid
  a.add(ev(EventKind::complete, 300, 64, 8192, IoOp::read));   // completes first ...
  EXPECT_TRUE(out.records.empty());                            // ... but waits for the older one
  a.add(ev(EventKind::complete, 400, 8, 4096, IoOp::write));
  ASSERT_EQ(out.records.size(), 2u);
  EXPECT_EQ(out.records[0].offset_bytes, 8u * 512);
  EXPECT_EQ(out.records[0].issue_ns, 150u);
  EXPECT_EQ(out.records[0].complete_ns, 400u);
  EXPECT_EQ(out.records[0].queue_ns, 50u);
  EXPECT_EQ(out.records[0].pid, 77u);  // the submitter from the Q event, not the issuer
  EXPECT_EQ(out.records[1].pid, 88u);
  EXPECT_EQ(out.records[1].queue_ns, k_unknown_queue_ns);
  EXPECT_EQ(out.records[1].latency_ns(), 140u);
  ASSERT_EQ(a.processes().size(), 1u);
  EXPECT_EQ(a.processes()[0].comm, "postgres");
}

TEST(CaptureAssembler, CountsWhatItCannotPair) {
  Collected out;
  AssemblerOptions o;
  o.stale_after_ns = 1000;
  Assembler a(o, out.sink());
  a.add(ev(EventKind::complete, 10, 5, 512));  // never issued
  a.add(ev(EventKind::issue, 20, 100, 4096));  // never completed (lost)
  a.add(ev(EventKind::issue, 30, 200, 4096));
  a.add(ev(EventKind::complete, 40, 200, 4096));
  EXPECT_TRUE(out.records.empty());              // held behind the one still in flight
  a.add(ev(EventKind::issue, 2000, 300, 4096));  // the first is stale now
  ASSERT_EQ(out.records.size(), 2u);
  EXPECT_TRUE(out.records[0].flags & io_flag::unmatched);
  EXPECT_FALSE(out.records[0].completed());
  EXPECT_TRUE(out.records[1].completed());
  a.finish();
  EXPECT_EQ(out.records.size(), 3u);
  EXPECT_EQ(a.unmatched_issues(), 2u);  // the stale one and the one open at the end
  EXPECT_EQ(a.unmatched_completions(), 1u);
}

// Two data requests at one sector in flight at once: the completion pairs with the newest
// (docs/capture.md); flushes, one key for all, complete in order: the oldest first.
TEST(CaptureAssembler, SameSectorTwiceDataPairsTheNewestFlushesTheOldest) {
  Collected out;
  Assembler a({}, out.sink());
  a.add(ev(EventKind::issue, 10, 8, 4096, IoOp::write));
  a.add(ev(EventKind::issue, 20, 8, 4096, IoOp::write));
  a.add(ev(EventKind::complete, 30, 8, 4096, IoOp::write));
  a.add(ev(EventKind::complete, 50, 8, 4096, IoOp::write));
  a.add(ev(EventKind::issue, 60, 0, 0, IoOp::flush));
  a.add(ev(EventKind::issue, 70, 0, 0, IoOp::flush));
  a.add(ev(EventKind::complete, 75, UINT64_MAX, 0, IoOp::flush));
  a.add(ev(EventKind::complete, 90, UINT64_MAX, 0, IoOp::flush));
  ASSERT_EQ(out.records.size(), 4u);
  EXPECT_EQ(out.records[0].latency_ns(), 40u);  // issued at 10, the second completion
  EXPECT_EQ(out.records[1].latency_ns(), 10u);  // issued at 20, the first completion
  EXPECT_EQ(out.records[2].latency_ns(), 15u);  // flushes in order
  EXPECT_EQ(out.records[3].latency_ns(), 20u);
}

// A completion event the kernel dropped (it does, without a PERF_RECORD_LOST; docs/capture.md)
// leaves its request unmatched and nothing else wrong: later requests at the same sector keep
// their own completions, so no latency is shifted onto another request.
TEST(CaptureAssembler, ALostCompletionShiftsNoLaterLatency) {
  Collected out;
  Assembler a({}, out.sink());
  a.add(ev(EventKind::issue, 100, 8, 4096));  // its completion is lost
  for (uint64_t i = 1; i <= 3; ++i) {
    a.add(ev(EventKind::issue, 100 + 1000 * i, 8, 4096));
    a.add(ev(EventKind::complete, 100 + 1000 * i + 7, 8, 4096));
  }
  a.finish();
  ASSERT_EQ(out.records.size(), 4u);
  EXPECT_FALSE(out.records[0].completed());
  for (size_t i = 1; i < 4; ++i) EXPECT_EQ(out.records[i].latency_ns(), 7u) << i;
  EXPECT_EQ(a.unmatched_issues(), 1u);
  EXPECT_EQ(a.unmatched_completions(), 0u);
}

// What a journal commit looks like on a device without FUA (seen with perf on a loop device):
// pre-flush "FF" issued at sector 0 and completed at sector -1, the data write, the post-flush,
// then the data request's 0-byte completion. Three IOs, nothing unmatched.
TEST(CaptureAssembler, FlushSequencesPairWithoutSectors) {
  Collected out;
  Assembler a({}, out.sink());
  a.add(ev(EventKind::queue, 1, 229396, 1024, IoOp::write, 9));
  a.add(ev(EventKind::issue, 2, 0, 0, IoOp::flush));
  a.add(ev(EventKind::complete, 3, UINT64_MAX, 0, IoOp::flush));
  a.add(ev(EventKind::issue, 4, 229396, 1024, IoOp::write));
  a.add(ev(EventKind::complete, 5, 229396, 1024, IoOp::write));
  a.add(ev(EventKind::issue, 6, 0, 0, IoOp::flush));
  a.add(ev(EventKind::complete, 7, UINT64_MAX, 0, IoOp::flush));
  a.add(ev(EventKind::complete, 8, 229396, 0, IoOp::write));
  a.finish();
  ASSERT_EQ(out.records.size(), 3u);
  EXPECT_EQ(out.records[0].op, IoOp::flush);
  EXPECT_EQ(out.records[1].pid, 9u);
  EXPECT_EQ(a.unmatched_issues(), 0u);
  EXPECT_EQ(a.unmatched_completions(), 0u);
}

// zram and dm have no issue stage: each Q is an IO, completed by the bio's completion.
TEST(CaptureAssembler, BioBasedDevicesUseTheQueueEvent) {
  Collected out;
  AssemblerOptions o;
  o.request_based = {false};
  Assembler a(o, out.sink());
  a.add(ev(EventKind::queue, 10, 8, 4096, IoOp::write, 5));
  a.add(ev(EventKind::complete, 25, 8, 4096, IoOp::write));
  ASSERT_EQ(out.records.size(), 1u);
  EXPECT_TRUE(out.records[0].flags & io_flag::queue_time_only);
  EXPECT_EQ(out.records[0].latency_ns(), 15u);
  EXPECT_EQ(out.records[0].pid, 5u);
}

CaptureHeader one_device(uint64_t capacity) {
  CaptureHeader h;
  h.devices.push_back({"/dev/x", 1, 2, capacity, 512, true, "", ""});
  return h;
}

IoRecord rec(uint64_t issue, uint64_t complete, uint64_t offset, uint32_t len, IoOp op) {
  IoRecord r;
  r.issue_ns = issue;
  r.complete_ns = complete;
  r.offset_bytes = offset;
  r.length_bytes = len;
  r.op = op;
  r.pid = 1;
  return r;
}

// 1 s steps. Step 0: 4 RND 4 KiB reads at QD 2 (pairs overlapping for their whole life) and a
// sequential run of 8 KiB writes; step 1: one flush.
TEST(CaptureCharacterize, StreamsStepsQueueDepthAndHeatMap) {
  CharacterizeOptions o;
  o.step_ns = 1'000'000'000;
  o.lba_bins = 4;
  Characterizer ch(one_device(1ULL << 30), o);
  const uint64_t ms = 1'000'000;
  // Reads at 0/0, 100/100 ms, each 50 ms long: QD 2 during 2 x 50 ms.
  ch.add(rec(0, 50 * ms, 900ULL << 20, 4096, IoOp::read));
  ch.add(rec(0, 50 * ms, 10ULL << 20, 4096, IoOp::read));
  ch.add(rec(100 * ms, 150 * ms, 300ULL << 20, 4096, IoOp::read));
  ch.add(rec(100 * ms, 150 * ms, 600ULL << 20, 4096, IoOp::read));
  for (uint64_t i = 0; i < 4; ++i) {  // SEQ after the first; 10 ms each, QD 1
    ch.add(rec((200 + i * 10) * ms, (210 + i * 10) * ms, (1ULL << 20) + i * 8192, 8192, IoOp::write));
  }
  ch.add(rec(1500 * ms, 1501 * ms, 0, 0, IoOp::flush));
  CaptureTrailer t;
  t.duration_ns = 2000 * ms;
  const results::IoCharacterization c = ch.finish(t);
  EXPECT_EQ(c.ios, 9u);
  ASSERT_EQ(c.steps.size(), 2u);
  ASSERT_EQ(c.streams.size(), 4u);
  EXPECT_EQ(c.streams[0].name, "RND 4KiB R");
  EXPECT_DOUBLE_EQ(c.streams[0].io_share, 4.0 / 9);
  EXPECT_EQ(c.streams[1].name, "SEQ 8KiB W");
  EXPECT_EQ(c.streams[1].ios, 3u);
  EXPECT_EQ(c.streams[2].name, "FLUSH");  // ties (1 IO each) by name
  EXPECT_EQ(c.streams[3].name, "RND 8KiB W");
  EXPECT_EQ(c.streams_for_80pct, 3u);  // 4/9 = 44 %, 7/9 = 78 %, 8/9 = 89 %
  // Step 0: in flight 4 x 50 ms + 4 x 10 ms = 240 ms in 1 s.
  EXPECT_NEAR(c.steps[0].qd_mean, 0.24, 1e-12);
  EXPECT_EQ(c.steps[0].qd_max, 2u);
  EXPECT_EQ(c.steps[0].ios, 8u);
  EXPECT_DOUBLE_EQ(c.steps[0].iops, 8.0);
  EXPECT_EQ(c.steps[1].ios, 1u);
  EXPECT_EQ(c.steps[1].qd_max, 1u);
  // Heat map: 4 bins of 256 MiB; offsets 10 MiB and 1 MiB (x4) -> bin 0; 300 -> 1; 600 -> 2; 900 -> 3.
  EXPECT_EQ(c.steps[0].lba_ios, (std::vector<uint64_t>{5, 1, 1, 1}));
  EXPECT_EQ(c.steps[1].lba_ios, (std::vector<uint64_t>{1, 0, 0, 0}));
  // Per step the top streams' IOs and bytes, then "other" (step_streams = 4: none left).
  EXPECT_EQ(c.steps[0].stream_ios, (std::vector<uint64_t>{4, 3, 0, 1, 0}));
  EXPECT_EQ(c.steps[0].stream_bytes, (std::vector<uint64_t>{4 * 4096, 3 * 8192, 0, 8192, 0}));
  EXPECT_EQ(c.min_size_bytes, 4096u);
  EXPECT_EQ(c.max_size_bytes, 8192u);
}

// A record whose time is decades after the start (a corrupt or hostile trace) would make a
// billion steps: refused at k_max_steps with what to do, whether it is issued or completes there.
TEST(CaptureCharacterize, StepsBeyondTheBoundAreRefused) {
  CharacterizeOptions o;
  o.step_ns = 1'000'000'000;
  Characterizer ch(one_device(1ULL << 30), o);
  ch.add(rec(0, 1000, 0, 4096, IoOp::read));
  ch.add(rec((k_max_steps - 1) * o.step_ns, (k_max_steps - 1) * o.step_ns + 5, 0, 4096, IoOp::read));  // last step
  try {
    ch.add(rec(1'657'324'662'872'348'928ULL, 1'657'324'662'872'349'928ULL, 0, 4096, IoOp::read));
    ADD_FAILURE() << "a record 52 years in was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("100000 steps of 1.0s): give a longer --step"), std::string::npos) << e.what();
  }
  Characterizer late(one_device(1ULL << 30), o);
  EXPECT_THROW(late.add(rec(0, k_max_steps * o.step_ns + 1, 0, 4096, IoOp::read)), UsageError);  // completes late
}

// `capture --duration 5s` of a workload running at 1,000 IOPS: perf set-up put the first IO 1.31 s
// after t0, the capture ended 50 ms into a step. The steps start at the first IO (no empty first
// step), the last is marked partial with its rate over its own 50 ms, the totals' rate is over the
// 5.05 s span; an origin the caller knows (a workload's start) is where step 0 starts instead.
TEST(CaptureCharacterize, StepsStartAtTheFirstIoAndTheLastStubIsPartial) {
  const uint64_t ms = 1'000'000;
  CharacterizeOptions o;
  o.step_ns = 1000 * ms;
  CaptureTrailer t;
  t.duration_ns = 6360 * ms;
  const auto run = [&](const CharacterizeOptions& options) {
    Characterizer ch(one_device(1ULL << 30), options);
    for (uint64_t i = 0; i < 5050; ++i)
      ch.add(rec((1310 + i) * ms, (1310 + i) * ms + 100'000, i * 4096, 4096, IoOp::read));
    return ch.finish(t);
  };
  const results::IoCharacterization c = run(o);
  EXPECT_EQ(c.origin_ns, 1310 * ms);
  ASSERT_EQ(c.steps.size(), 6u);
  EXPECT_EQ(c.steps[0].start_ns, 1310 * ms);
  for (size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(c.steps[k].ios, 1000u) << k;
    EXPECT_DOUBLE_EQ(c.steps[k].iops, 1000.0) << k;
    EXPECT_FALSE(c.steps[k].partial) << k;
  }
  EXPECT_TRUE(c.steps[5].partial);
  EXPECT_EQ(c.steps[5].length_ns, 50 * ms);
  EXPECT_EQ(c.steps[5].ios, 50u);
  EXPECT_DOUBLE_EQ(c.iops, 1000.0) << "5050 IOs over the 5.05 s from the first IO, not over 6.36 s";
  EXPECT_NEAR(c.qd_mean, 0.1, 1e-9);
  CharacterizeOptions known = o;
  known.origin_ns = 1000 * ms;
  const results::IoCharacterization w = run(known);
  ASSERT_EQ(w.steps.size(), 6u);
  EXPECT_EQ(w.steps[0].start_ns, 1000 * ms);
  EXPECT_EQ(w.steps[0].ios, 690u);
  EXPECT_EQ(w.steps[5].length_ns, 360 * ms);
  EXPECT_TRUE(w.steps[5].partial);
  nlohmann::json j;
  to_json(j, c);
  const results::IoCharacterization back = results::read_io_characterization(j);
  EXPECT_EQ(back.origin_ns, c.origin_ns);
  EXPECT_TRUE(back.steps[5].partial);
  EXPECT_FALSE(back.steps[4].partial);
}

// An IO in flight over many steps counts whole in each step it covers and in part in the steps
// where it starts and ends (each added once, not step by step: a capture of IOs that each span
// 100,000 steps costs no more than one of short IOs).
TEST(CaptureCharacterize, AnIoSpanningStepsCountsInEachOfThem) {
  CharacterizeOptions o;
  o.step_ns = 1000;
  o.origin_ns = 0;  // steps from t0 (by default they start at the first IO, here 500)
  Characterizer ch(one_device(1ULL << 30), o);
  ch.add(rec(500, 4250, 0, 4096, IoOp::read));      // steps 0 (half), 1, 2, 3 (whole), 4 (quarter)
  ch.add(rec(2000, 3000, 8192, 4096, IoOp::read));  // step 2, whole
  CaptureTrailer t;
  t.duration_ns = 5000;
  const results::IoCharacterization c = ch.finish(t);
  ASSERT_EQ(c.steps.size(), 5u);
  EXPECT_DOUBLE_EQ(c.steps[0].qd_mean, 0.5);
  EXPECT_DOUBLE_EQ(c.steps[1].qd_mean, 1.0);
  EXPECT_DOUBLE_EQ(c.steps[2].qd_mean, 2.0);
  EXPECT_DOUBLE_EQ(c.steps[3].qd_mean, 1.0);
  EXPECT_DOUBLE_EQ(c.steps[4].qd_mean, 0.25);
  EXPECT_DOUBLE_EQ(c.qd_mean, (3750.0 + 1000.0) / 5000.0);
}

TEST(CaptureCharacterize, TheDocumentRoundTripsThroughItsReader) {
  CharacterizeOptions o;
  o.step_ns = 1'000'000;
  Characterizer ch(one_device(1 << 20), o);
  for (uint64_t i = 0; i < 50; ++i) ch.add(rec(i * 100'000, i * 100'000 + 5000, i * 4096, 4096, IoOp::write));
  const results::IoCharacterization c = ch.finish(std::nullopt);
  EXPECT_FALSE(c.capture_complete);
  nlohmann::json j;
  to_json(j, c);
  nlohmann::json again;
  to_json(again, results::read_io_characterization(j));
  EXPECT_EQ(j, again);
  EXPECT_EQ(results::read_io_characterization(nlohmann::json::parse(R"({"totals": {"ios": "x"}})")).ios, 0u);
}

}  // namespace
}  // namespace ptsuite::capture
