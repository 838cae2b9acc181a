// Test helper: loads the byte fixtures of tests/data/device/*.fixture — device responses
// written by hand from the public specs, one field per line with its offset, so each test
// input is reviewable against the spec table it comes from.
//
// Syntax (one directive per line, '#' starts a comment):
//   size N                      buffer of N zero bytes (must come first)
//   at OFFSET hex B0 B1 ...     raw bytes
//   at OFFSET ascii "text" [N]  bytes of text, space-padded to N
//   at OFFSET ata "text" N      ATA string: N bytes, two characters per word, first in 15:8
//   at OFFSET le16|le32|le64 V  little-endian integer (decimal or 0x hex)
//   at OFFSET be16|be32|be64 V  big-endian integer
//   ata-checksum                word 255 = A5h signature + checksum (ACS-3 IDENTIFY word 255)
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptsuite::device::testing {

inline std::vector<uint8_t> load_fixture(const std::string& name) {
  const std::string path = std::string(PTSUITE_TEST_DATA_DIR) + "/device/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  std::vector<uint8_t> buf;
  std::string line;
  int line_no = 0;
  auto fail = [&](const std::string& why) {
    throw std::runtime_error(path + ":" + std::to_string(line_no) + ": " + why);
  };
  while (std::getline(in, line)) {
    ++line_no;
    // Strip comments outside quotes.
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '"') quoted = !quoted;
      if (line[i] == '#' && !quoted) {
        line.resize(i);
        break;
      }
    }
    std::istringstream words(line);
    std::string op;
    if (!(words >> op)) continue;
    if (op == "size") {
      size_t n = 0;
      words >> n;
      buf.assign(n, 0);
      continue;
    }
    if (op == "ata-checksum") {
      buf[510] = 0xa5;
      uint8_t sum = 0;
      for (size_t i = 0; i < 511; ++i) sum = static_cast<uint8_t>(sum + buf[i]);
      buf[511] = static_cast<uint8_t>(0x100 - sum);
      continue;
    }
    if (op != "at") fail("unknown directive " + op);
    std::string offset_text, kind;
    words >> offset_text >> kind;
    size_t at = std::stoul(offset_text, nullptr, 0);
    auto put = [&](uint8_t b) {
      if (at >= buf.size()) fail("offset beyond size");
      buf[at++] = b;
    };
    if (kind == "hex") {
      std::string b;
      while (words >> b) put(static_cast<uint8_t>(std::stoul(b, nullptr, 16)));
    } else if (kind == "ascii" || kind == "ata") {
      const auto open = line.find('"'), close = line.rfind('"');
      if (open == std::string::npos || close == open) fail("missing quoted text");
      std::string text = line.substr(open + 1, close - open - 1);
      std::istringstream rest(line.substr(close + 1));
      size_t width = text.size();
      rest >> width;
      text.resize(width, ' ');
      if (kind == "ata") {
        for (size_t i = 0; i + 1 < text.size(); i += 2) std::swap(text[i], text[i + 1]);
      }
      for (const char c : text) put(static_cast<uint8_t>(c));
    } else {
      std::string value_text;
      words >> value_text;
      const uint64_t v = std::stoull(value_text, nullptr, 0);
      const size_t n = kind.substr(2) == "16" ? 2 : kind.substr(2) == "32" ? 4 : 8;
      if (kind.rfind("le", 0) == 0) {
        for (size_t i = 0; i < n; ++i) put(static_cast<uint8_t>(v >> (8 * i)));
      } else if (kind.rfind("be", 0) == 0) {
        for (size_t i = 0; i < n; ++i) put(static_cast<uint8_t>(v >> (8 * (n - 1 - i))));
      } else {
        fail("unknown kind " + kind);
      }
    }
  }
  return buf;
}

}  // namespace ptsuite::device::testing
