#include <ptsuite/report/html/page.hpp>

#include <fmt/format.h>

#include <algorithm>

#include <ptsuite/report/html/style.hpp>

namespace ptsuite::report::html {

namespace {

std::string column_html(const HeaderColumn& column) {
  std::string out;
  for (const auto& [label, value] : column.rows) {
    out +=
        "<div class=\"kv\"><span class=\"k\">" + text(label) + ":</span> <span class=\"v\">" + value + "</span></div>";
  }
  return out;
}

std::string page_label(size_t n, size_t m) { return fmt::format("Page {} of {}", n, m); }

}  // namespace

std::vector<std::vector<size_t>> paginate(const std::vector<size_t>& lines, size_t budget) {
  std::vector<std::vector<size_t>> out;
  size_t used = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (out.empty() || used + lines[i] > budget) {
      out.emplace_back();
      used = 0;
    }
    out.back().push_back(i);
    used += lines[i];
  }
  return out;
}

size_t text_lines(size_t chars, size_t width_chars) {
  return width_chars == 0 ? 1 : std::max<size_t>(1, (chars + width_chars - 1) / width_chars);
}

std::string render_header(const PageHeader& h, size_t page_number, size_t page_count) {
  std::string out = "<header class=\"snia\">\n";
  if (!h.simulated.empty()) {
    out += "<div class=\"sim-banner\">" + text(h.simulated) + "</div>\n";
  }
  out += "<table class=\"hd-top\"><tr>";
  out += "<td class=\"hd-org\"><div class=\"org\">" + text(h.organisation[0]) + "</div><div>" +
         text(h.organisation[1]) + "</div><div>" + text(h.organisation[2]) + "</div></td>";
  out += "<td class=\"hd-title\"><div class=\"t\">" + text(h.title) + "</div>";
  out += "<div class=\"st\">" + text(h.subtitle) + "</div>";
  out += "<div class=\"dates\">" + text(h.run_dates) + "</div></td>";
  out += "<td class=\"hd-rev\"><div>Rev. <b>" + text(h.revision) + "</b></div><div>" + text(h.profile) +
         "</div><div class=\"pg\">" + page_label(page_number, page_count) + "</div></td>";
  out += "</tr></table>\n<table class=\"hd-who\"><tr>";
  out += "<th>Vendor</th><td>" + text(h.vendor) + "</td>";
  out += "<th>SSD Model</th><td>" + text(h.model) + "</td>";
  out += "<th>Tested By</th><td>" + text(h.tested_by) + "</td>";
  out += "</tr></table>\n<table class=\"hd-cols\"><thead><tr>";
  for (const HeaderColumn& c : h.columns) {
    out += "<th>" + text(c.title) + "</th>";
  }
  out += "</tr></thead><tbody><tr>";
  for (const HeaderColumn& c : h.columns) {
    out += "<td>" + column_html(c) + "</td>";
  }
  out += "</tr></tbody></table>\n</header>\n";
  return out;
}

std::string render_document(const std::vector<Page>& pages, const std::string& document_title,
                            const std::string& footer_text) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>" +
      text(document_title) + "</title>\n<style>\n" + report_css() + "</style>\n</head>\n<body>\n";
  size_t plot = 0;
  size_t table = 0;
  const size_t m = pages.size();
  for (size_t i = 0; i < m; ++i) {
    const Page& p = pages[i];
    out += fmt::format("<section class=\"page\" id=\"page-{}\">\n", i + 1);
    if (p.header) {
      out += render_header(*p.header, i + 1, m);
    }
    out += "<h2 class=\"page-title\">" + text(p.title) + "</h2>\n<div class=\"content\">\n";
    for (const Block& b : p.blocks) {
      const std::string extra = b.css_class.empty() ? "" : " " + attr(b.css_class);
      switch (b.kind) {
        case BlockKind::figure:
          ++plot;
          out += "<figure class=\"fig" + extra + "\">" + b.html + "<figcaption>Plot " + std::to_string(plot) +
                 " \u2013 " + text(b.caption) + "</figcaption></figure>\n";
          break;
        case BlockKind::table:
          ++table;
          out += "<figure class=\"tbl" + extra + "\">" + b.html + "<figcaption>Table " + std::to_string(table) +
                 " \u2013 " + text(b.caption) + "</figcaption></figure>\n";
          break;
        case BlockKind::html:
          out += "<div class=\"blk" + extra + "\">" + b.html + "</div>\n";
          break;
      }
    }
    out += "</div>\n<footer class=\"page-foot\"><span>" + text(footer_text) + "</span><span class=\"pg\">" +
           page_label(i + 1, m) + "</span></footer>\n</section>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace ptsuite::report::html
