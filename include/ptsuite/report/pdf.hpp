// Contract: PDF output by printing an HTML report with headless Chromium (Debian package
// `chromium`). find_chromium() returns its path or "" ; print_pdf() throws Error naming the
// package to install when it is absent, and SystemError when printing fails.
#pragma once

#include <string>

namespace ptsuite::report {

std::string find_chromium();
void print_pdf(const std::string& html_path, const std::string& pdf_path);

}  // namespace ptsuite::report
