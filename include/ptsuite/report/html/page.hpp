// Contract: the page model of the HTML report and its layout into the document. A report is a
// list of Pages; each Page shares the SNIA header of its test (PageHeader: title row, vendor /
// model / tested-by row, and the four columns Test Platform, Device Under Test, Set-up
// Parameters, Test Parameters) and holds Blocks: figures (inline SVG), tables, or free HTML.
//
// render_document() numbers the pages 1..m ("Page n of m" in every header and footer),
// numbers figure captions "Plot k – ..." and table captions "Table k – ..." in document order,
// and wraps everything in one self-contained HTML document with the print CSS (style.hpp).
// Page i is <section class="page" id="page-i">. Deterministic; no IO.
//
// Callers size their content to one printed page (style.hpp: the page box is 190 mm x 257 mm
// including header and footer); a page never grows: overflow is clipped, so builders keep to
// the budgets documented in style.hpp.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/report/html/markup.hpp>

namespace ptsuite::report::html {

struct HeaderColumn {
  std::string title;  // "Test Platform", ...
  Rows rows;          // (label, value HTML)
};

struct PageHeader {
  std::string title;      // "IOPS Test – Report Page", "PTS Report Summary"
  std::string subtitle;   // "IOPS - Block Size x RW Mix Matrix"
  std::string revision;   // "PTS 2.0.2"
  std::string profile;    // "PTS-E (Enterprise)"
  std::string run_dates;  // "2026-11-21 20:16:51Z – 20:19:58Z" (from results.json)
  std::string vendor;
  std::string model;
  std::string tested_by;
  // A simulated run's banner (results/simulation.hpp), above everything on every page; "" for a
  // run on a real target.
  std::string simulated;
  std::array<HeaderColumn, 4> columns;  // platform, DUT, set-up, test parameters
  // The three lines at the top left: the SNIA block on PTS pages; ptsuite's own reports
  // (scenarios, comparisons) name themselves instead.
  std::array<std::string, 3> organisation = {"SNIA SSS TWG", "Solid State Storage", "Performance Test Specification"};
};

enum class BlockKind { figure, table, html };

struct Block {
  BlockKind kind = BlockKind::html;
  std::string html;       // inline SVG (figure), <table> (table), or any markup (html)
  std::string caption;    // figure / table caption text without its "Plot k – " number
  std::string css_class;  // extra class on the block's wrapper ("half", "wide", ...)
};

struct Page {
  std::shared_ptr<const PageHeader> header;
  std::string title;  // the page's title strip, e.g. "IOPS – Steady State Convergence"
  std::vector<Block> blocks;
};

// Groups consecutive items into pages by their estimated height in text lines: each group's
// sum stays within `budget`, except that an item taller than the budget gets a group of its own.
std::vector<std::vector<size_t>> paginate(const std::vector<size_t>& lines, size_t budget);
// Lines a text of `chars` characters takes in a column about `width_chars` characters wide.
size_t text_lines(size_t chars, size_t width_chars);

// The footer's fixed text (tool and schema), e.g. "ptsuite 0.1.0 (git abc) · results schema 1".
std::string render_document(const std::vector<Page>& pages, const std::string& document_title,
                            const std::string& footer_text);

// One header, as render_document writes it on page `page_number` of `page_count`.
std::string render_header(const PageHeader& header, size_t page_number, size_t page_count);

}  // namespace ptsuite::report::html
