// Contract: the small text helpers that parsers and writers across the modules share, one
// implementation each (they were private copies in units, workload, pts, capture, report and
// history):
//   trim()            ASCII whitespace (space, \t, \n, \v, \f, \r) off both ends; a view into
//                     the argument
//   append_csv_field  one RFC 4180 field: quoted, with quotes doubled, only when it holds a
//                     comma, a quote, CR or LF; otherwise as is
//   markup_escape()   text for XML / HTML: & < > " ' as references; the flavor decides the
//                     rest (html: ' is &#39; and the second slash of "//" is &#47;, so no
//                     comment-like "//" reaches the page; svg: ' is &apos; and the C0 controls
//                     XML 1.0 forbids become U+FFFD)
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace ptsuite {

[[nodiscard]] std::string_view trim(std::string_view s);

void append_csv_field(std::string& out, std::string_view field);
[[nodiscard]] std::string csv_field(std::string_view field);

enum class MarkupFlavor { html, svg };
[[nodiscard]] std::string markup_escape(std::string_view raw, MarkupFlavor flavor);

}  // namespace ptsuite
