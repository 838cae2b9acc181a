// Contract: the report's one stylesheet (inlined into the document's <style>): screen view as
// a paged document (grey desk, white sheets) and print with one report page per printed page.
//
// Print geometry: `@page { size: auto; margin: 10mm }` lets the printer's paper decide; every
// report page is a fixed 190 mm x 257 mm box (overflow hidden) that fits inside the printable
// area of both A4 (190 x 277 mm) and US Letter (195.9 x 259.4 mm), and consecutive pages are
// separated by `break-before: page`, so one report page is exactly one printed page.
//
// Budgets for page builders (vertical, in mm): header about 52, page title 7, footer 6,
// leaving about 190 for content. A full-width chart of W x H px (W = 720) takes H x 0.264 mm;
// so one chart of up to 600 px, or two of up to 320 px each, plus captions.
//
// No @import, no url() but same-document fragments, no fonts to fetch (generic families only).
#pragma once

#include <string>

namespace ptsuite::report::html {

std::string report_css();

}  // namespace ptsuite::report::html
