// Contract: the reports of a block IO capture's characterization (results/io_characterization.hpp,
// docs/capture.md), rendered from the typed record only:
//   capture_text()  the summary `ptsuite capture show` prints: totals, what was lost, the
//                   streams that cover >= 80 % of the IOs (at least the top 5), and one line
//                   per step (IOs, IOPS, MB/s, QD mean/max, latency mean/99 %)
//   capture_pages() the HTML pages (capture_html() wraps them in a document): the cumulative
//                   workload (stream shares), the IO stream map (top streams' IOs per step),
//                   IOPS / MB/s, queue depth and latency per step, the LBA heat map, processes
//   capture_csv()   capture.csv: one row per step (IOs, bytes, IOPS, MB/s, QD, latency)
// The app report puts capture_pages() after its first page (report/app_report.hpp).
// Pure functions of the record.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <ptsuite/report/html/page.hpp>
#include <ptsuite/results/io_characterization.hpp>

namespace ptsuite::report {

std::string capture_text(const results::IoCharacterization& c);
// `id` prefixes the charts' element ids (several captures on one document).
std::vector<html::Page> capture_pages(const results::IoCharacterization& c,
                                      const std::shared_ptr<const html::PageHeader>& header, const std::string& id);
std::string capture_html(const results::IoCharacterization& c);
std::string capture_csv(const results::IoCharacterization& c);

// The step charts' time axis (capture and app reports): a step's end in seconds since the steps'
// origin (the capture's first event or the workload's start), and whether a chart draws the step:
// a partial last step shorter than half a step is a stub whose rate is noise (a 50 ms stub
// extrapolated to 58,064 IOPS): it is left out of the charts (its IOs stay in the totals and the
// tables), and stub_note() says so in the caption ("" when nothing was left out).
double step_end_s(const results::IoCharacterization& c, const results::CharacterizationStep& s);
bool step_drawn(const results::IoCharacterization& c, const results::CharacterizationStep& s);
std::string stub_note(const results::IoCharacterization& c);

}  // namespace ptsuite::report
