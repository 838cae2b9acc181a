// Contract: PDF output by printing an HTML report with headless Chromium (Debian package
// `chromium`). find_chromium() returns its path or "" ; print_pdf() throws Error naming the
// package to install when it is absent, and SystemError when printing fails.
//
// Chromium runs as a child process in its own process group, isolated from any profile and
// from the network: --headless --no-sandbox (ptsuite runs as root) --disable-gpu
// --disable-quic --no-first-run --disable-background-networking --disable-component-update
// --disable-sync --disable-extensions --disable-crash-reporter, a fresh --user-data-dir in a
// private temporary directory (util/output_file.hpp's PrivateDir, removed afterwards), stdin
// from /dev/null and its output in a log inside that directory, opened by ptsuite's writer
// and handed over as its stderr. A run that exceeds `timeout` is killed (the whole group) and reported
// as SystemError; so is a non-zero exit or a missing/empty output, with the log's last lines.
//
// print_pdf(): --print-to-pdf --no-pdf-header-footer; the paper size is the HTML's @page
// (`size: auto`: Chromium's default paper, US Letter) unless `paper` names one: then a copy of
// the HTML with `@page { size: A4; ...}` (or letter) is printed. The PDF is written to a
// temporary file and then atomically to `pdf_path`.
// screenshot_png(): --screenshot --window-size=W,H: the first screenful of the page as PNG
// (the browser test's view of a report).
// dump_dom(): --dump-dom: the document as the browser holds it after loading and running its
// scripts (the report browser test injects one that writes the rendered page geometry).
// All block the calling thread; they may run concurrently (separate temporary profiles).
#pragma once

#include <chrono>
#include <string>

#include <ptsuite/util/output_file.hpp>

namespace ptsuite::report {

inline constexpr std::chrono::seconds k_chromium_timeout{180};

enum class Paper { automatic, a4, letter };
// "auto", "a4", "letter" (any case); UsageError naming `flag` otherwise.
Paper parse_paper(const std::string& text, const std::string& flag);

std::string find_chromium();
// `pdf_path`, `png_path`: the output gate's tokens (util/output_file.hpp).
void print_pdf(const std::string& html_path, const OutputPath& pdf_path, Paper paper = Paper::automatic,
               std::chrono::seconds timeout = k_chromium_timeout);
void screenshot_png(const std::string& html_path, const OutputPath& png_path, int width_px, int height_px,
                    std::chrono::seconds timeout = k_chromium_timeout);
std::string dump_dom(const std::string& html_path, int width_px, int height_px,
                     std::chrono::seconds timeout = k_chromium_timeout);

}  // namespace ptsuite::report
