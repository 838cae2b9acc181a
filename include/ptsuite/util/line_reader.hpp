// Contract: reads a text file that ptsuite imports from another tool (fio iologs) one line at a
// time, never holding more than one line of at most `max_line_bytes`, so that no input can
// exhaust memory through one endless line (a 50 MB line, /dev/zero). The file must be a regular
// file (importers read their input twice: format detection, then the import; a pipe or a
// device would be consumed by the first read): open_regular_file() refuses anything else.
// Every refusal is a UsageError (exit 2) whose message starts with the path and says what to
// do. Lines end at '\n'; a trailing '\r' is kept (callers split on whitespace). Not
// thread-safe: one reader per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <ptsuite/util/fd.hpp>

namespace ptsuite {

// The file opened read-only; UsageError naming `source` when it cannot be opened or is not a
// regular file ("<path> is not a regular file (a pipe): save it to a file first, ...").
UniqueFd open_regular_file(const std::string& path, const std::string& source);

class LineReader {
 public:
  LineReader(const std::string& path, size_t max_line_bytes, std::string source);
  // The next line without its '\n' into `line`; false at the end of the file. UsageError when
  // a line is longer than max_line_bytes ("<path>:<n>: a line longer than 64 KiB ...").
  bool next(std::string& line);
  // The number of the line last returned by next() (1-based).
  [[nodiscard]] uint64_t line_number() const { return m_line; }

 private:
  bool fill();

  UniqueFd m_fd;
  std::string m_path;
  std::string m_source;
  size_t m_max_line_bytes;
  std::vector<char> m_buffer;
  size_t m_begin = 0;
  size_t m_end = 0;
  bool m_eof = false;
  uint64_t m_line = 0;
};

}  // namespace ptsuite
