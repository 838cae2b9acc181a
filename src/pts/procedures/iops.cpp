// IOPS test, PTS 2.0.2 §7: purge, WIPC, then Rounds of R/W mix (outer) x block size (inner)
// RND segments until the tracking variables (2.0: three, all must pass; E 1.1: one) attain
// steady state or max_rounds; reported cells = measurement-window averages.
#include <ptsuite/pts/procedures/shared.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

class IopsTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "iops"; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override {
    TestSpec spec(ctx, id());
    results::TestRecord rec = begin_record(spec);
    results::GridMatrix matrix = run_mix_by_size_rounds(ctx, spec, id(), rec);
    return close_record(spec, std::move(rec), std::move(matrix));
  }
};

}  // namespace

std::unique_ptr<PtsTest> make_iops_test() { return std::make_unique<IopsTest>(); }

}  // namespace ptsuite::pts
