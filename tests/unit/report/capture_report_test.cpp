// The capture report's time axis (report/capture_report.hpp, issue 40 item 6): steps drawn from
// the capture's own first IO, a stub at the end left out of the charts and said so, never drawn
// as a rate over a few ms.
#include <gtest/gtest.h>

#include <string>

#include <ptsuite/report/capture_report.hpp>

namespace ptsuite::report {
namespace {

results::IoCharacterization with_stub() {
  results::IoCharacterization c;
  c.step_ns = 1'000'000'000;
  c.origin_ns = 1'310'000'000;
  c.duration_ns = 6'360'000'000;
  for (uint64_t k = 0; k < 6; ++k) {
    results::CharacterizationStep s;
    s.start_ns = c.origin_ns + k * c.step_ns;
    s.length_ns = k < 5 ? c.step_ns : 50'000'000;
    s.partial = k == 5;
    s.ios = k < 5 ? 25'000 : 2'903;
    s.iops = static_cast<double>(s.ios) / (static_cast<double>(s.length_ns) / 1e9);  // 58,060 for the stub
    c.steps.push_back(s);
  }
  return c;
}

TEST(CaptureReport, AStubAtTheEndIsNotDrawnAndTheAxisStartsAtTheFirstIo) {
  const results::IoCharacterization c = with_stub();
  EXPECT_DOUBLE_EQ(step_end_s(c, c.steps[0]), 1.0);
  EXPECT_TRUE(step_drawn(c, c.steps[4]));
  EXPECT_FALSE(step_drawn(c, c.steps[5]));
  EXPECT_NE(stub_note(c).find("a 0.05 s stub, is not drawn"), std::string::npos) << stub_note(c);
  const std::string html = capture_html(c);
  EXPECT_EQ(html.find("58,060"), std::string::npos) << "the stub's rate is no point of a chart";
  EXPECT_NE(html.find("the last one partial (0.05 s)"), std::string::npos);
  const std::string text = capture_text(c);
  EXPECT_NE(text.find("partial"), std::string::npos) << text;
  // A partial step of at least half a step is drawn (its rate is over its own length).
  results::IoCharacterization half = c;
  half.steps[5].length_ns = 600'000'000;
  EXPECT_TRUE(step_drawn(half, half.steps[5]));
  EXPECT_EQ(stub_note(half), "");
}

}  // namespace
}  // namespace ptsuite::report
