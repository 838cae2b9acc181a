// Contract: the report pages, one builder per PTS test (pts-spec.md §3) plus the summary pages
// that open the report. Each builder takes the whole typed results document and one of its test
// records (results::RunDocument, results::TestRecord) and returns that test's pages, all
// sharing one SNIA header (header.hpp). Chart ids come from the document's IdSource, so they
// are unique in the document and stable from render to render.
//
//   iops_pages        SS convergence (0/100 row, one series per block size); per tracking
//                     variable the measurement window and determination table; the IOPS
//                     table (BS rows x R/W columns) with the 2D plot (IOPS vs BS, log x);
//                     the 3D view (isometric bars)
//   throughput_pages  per block size: SS convergence (write and read), window + determination;
//                     then the MB/s table with a bar chart
//   latency_pages     SS convergence of ART and MRT; window + determination; tables of IOPS,
//                     ART, 99.999 % and MRT per (BS, R/W); 3D views of ART and MRT; the
//                     response-time histogram and the confidence-level plot (3/4/5 nines)
//   wsat_pages        IOPS vs time, vs TGBW and vs drive fills (linear and log); ART, 99.999 %
//                     and MRT vs time with the run's stop data; the capture histogram and
//                     confidence-level plot
//   cbw_pages         preconditioning convergence, window + determination; inter-round
//                     pre-writes; IOPS vs Round at TC 32; demand-variation window +
//                     determination; demand variation; demand intensity; operating points with
//                     the host CPU grid; per Max/Mid/Min the pre-write and its histogram
//   dirth_pages       the cbw_pages over DIRTH's one access pattern, titled DIRTH (§14)
//   endurance_write_pages  the wsat_pages over the endurance-write record (a ptsuite
//                     extension), titled Endurance, plus 99 / 99.9 / 99.99 % and MRT vs time
//   latency_sweep_pages  (extension) the SS window, then per R/W mix and block size ART and
//                     99.99 % vs IOPS (one series per TC) and the table of every TC x QD cell
//   ecw_pages         the cbw_pages of PTS-E 1.1 ECW, titled ECW (no histogram pages: ECW
//                     has none)
//   hir_pages         preconditioning convergence, window + determination; IOPS vs time over
//                     every wait state (write periods back to back); per wait state the
//                     average IOPS and the baseline after it against the steady-state IOPS
//   xsr_pages         throughput vs time across the three access groups; throughput, ART and
//                     MRT vs time; per group average and end-of-group throughput, peak ART and
//                     MRT, and the recovery time of access group 3
//   claims_pages      `ptsuite validate`: the verdict and claims table (declared, measured,
//                     margin, tolerance), each claim's measurement as % of its value, the
//                     measurement points, each steady-state point's window + determination
//   summary_pages     run status and verdict, each test's steady state and compliance, the
//                     clause x test grid, the reasons, settings changed from defaults and the
//                     [U] conventions. `page_ranges` (test id -> "7–12") label the test list.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/report/html/figures.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/test_record.hpp>

namespace ptsuite::report::html {

std::vector<Page> summary_pages(const results::RunDocument& doc, const std::map<std::string, std::string>& page_ranges);
// <name>_pages of every test of the one list (results/test_kinds.def), described above.
#define PTSUITE_TEST(name, id, group, block_key, Record, schema_def) \
  std::vector<Page> name##_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids);
#include <ptsuite/results/test_kinds.def>
// rww-sweep (docs/rww.md, src/report/html/rww_pages.cpp): the DIRTH pages over the applied test
// workload.
std::vector<Page> rww_sweep_demand_pages(const results::RunDocument& doc, const results::TestRecord& test,
                                         IdSource& ids);

// A test with an id ptsuite has no page builder for: its header, a note and the compliance
// table only (so a results.json from a newer tool still renders).
std::vector<Page> generic_test_pages(const results::RunDocument& doc, const results::TestRecord& test);

// Shared by the builders: the test's per-clause compliance table (test.compliance.clauses) on
// as many pages as it needs, titled "<short_name> – Compliance by Clause".
std::vector<Page> compliance_pages(const std::shared_ptr<const PageHeader>& header, const results::TestRecord& test,
                                   const std::string& short_name);

// The test's block as T, or a shared empty T when the record holds another kind or none (a
// stripped or partial record still renders, its values as dashes).
template <typename T>
const T& block_or_empty(const results::TestRecord& test) {
  static const T k_empty{};
  const T* block = test.block_as<T>();
  return block != nullptr ? *block : k_empty;
}

}  // namespace ptsuite::report::html
