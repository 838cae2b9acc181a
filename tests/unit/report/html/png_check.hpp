// Test helper: a minimal PNG decoder for Chromium's screenshots (8-bit RGB or RGBA,
// non-interlaced), with its own small inflate (stored, fixed and dynamic Huffman blocks, after
// zlib's "puff" reference decoder), so the browser test can look at pixels without a library.
// Throws std::runtime_error on anything it does not support or that is malformed.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ptsuite::report::html::testing {

struct Image {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<std::array<uint8_t, 3>> rgb;  // row-major, alpha dropped
};

namespace png_detail {

class Bits {
 public:
  explicit Bits(std::string_view data) : m_data(data) {}
  int bits(int need) {
    uint32_t value = m_buffer;
    while (m_count < need) {
      if (m_pos >= m_data.size()) {
        throw std::runtime_error("inflate: out of input");
      }
      value |= static_cast<uint32_t>(static_cast<uint8_t>(m_data[m_pos++])) << m_count;
      m_count += 8;
    }
    m_buffer = value >> need;
    m_count -= need;
    return static_cast<int>(value & ((1u << need) - 1));
  }
  void align() {
    m_buffer = 0;
    m_count = 0;
  }
  uint8_t byte() {
    if (m_pos >= m_data.size()) {
      throw std::runtime_error("inflate: out of input");
    }
    return static_cast<uint8_t>(m_data[m_pos++]);
  }

 private:
  std::string_view m_data;
  size_t m_pos = 0;
  uint32_t m_buffer = 0;
  int m_count = 0;
};

struct Huffman {
  std::array<int, 16> count{};
  std::vector<int> symbol;
};

inline Huffman build(const int* lengths, int n) {
  Huffman h;
  h.symbol.assign(static_cast<size_t>(n), 0);
  for (int s = 0; s < n; ++s) {
    ++h.count[static_cast<size_t>(lengths[s])];
  }
  std::array<int, 16> offs{};
  for (size_t len = 1; len < 15; ++len) {
    offs[len + 1] = offs[len] + h.count[len];
  }
  for (int s = 0; s < n; ++s) {
    if (lengths[s] != 0) {
      h.symbol[static_cast<size_t>(offs[static_cast<size_t>(lengths[s])]++)] = s;
    }
  }
  return h;
}

inline int decode(Bits& in, const Huffman& h) {
  int code = 0;
  int first = 0;
  int index = 0;
  for (size_t len = 1; len <= 15; ++len) {
    code |= in.bits(1);
    const int count = h.count[len];
    if (code - count < first) {
      return h.symbol[static_cast<size_t>(index + (code - first))];
    }
    index += count;
    first += count;
    first <<= 1;
    code <<= 1;
  }
  throw std::runtime_error("inflate: bad code");
}

inline void codes(Bits& in, std::string& out, const Huffman& lens, const Huffman& dists) {
  static constexpr int k_len_base[] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                       31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
  static constexpr int k_len_extra[] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                        2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
  static constexpr int k_dist_base[] = {1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
                                        33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
                                        1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
  static constexpr int k_dist_extra[] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                         6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
  for (;;) {
    int symbol = decode(in, lens);
    if (symbol < 256) {
      out += static_cast<char>(symbol);
    } else if (symbol == 256) {
      return;
    } else {
      symbol -= 257;
      if (symbol >= 29) {
        throw std::runtime_error("inflate: bad length");
      }
      const int len = k_len_base[symbol] + in.bits(k_len_extra[symbol]);
      const int ds = decode(in, dists);
      if (ds >= 30) {
        throw std::runtime_error("inflate: bad distance");
      }
      const size_t dist = static_cast<size_t>(k_dist_base[ds] + in.bits(k_dist_extra[ds]));
      if (dist > out.size()) {
        throw std::runtime_error("inflate: distance too far");
      }
      for (int i = 0; i < len; ++i) {
        out += out[out.size() - dist];
      }
    }
  }
}

inline std::string inflate(std::string_view zlib) {
  if (zlib.size() < 2 || (static_cast<uint8_t>(zlib[0]) & 0x0f) != 8) {
    throw std::runtime_error("not a zlib deflate stream");
  }
  Bits in(zlib.substr(2));
  std::string out;
  int last = 0;
  while (last == 0) {
    last = in.bits(1);
    const int type = in.bits(2);
    if (type == 0) {
      in.align();
      const unsigned len = in.byte() | (static_cast<unsigned>(in.byte()) << 8);
      (void)in.byte();
      (void)in.byte();
      for (unsigned i = 0; i < len; ++i) {
        out += static_cast<char>(in.byte());
      }
    } else if (type == 1) {
      static const auto fixed = [] {
        std::array<int, 288> l{};
        for (size_t s = 0; s < 288; ++s) {
          l[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
        }
        std::array<int, 30> d{};
        d.fill(5);
        return std::pair<Huffman, Huffman>(build(l.data(), 288), build(d.data(), 30));
      }();
      codes(in, out, fixed.first, fixed.second);
    } else if (type == 2) {
      static constexpr int k_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
      const int nlen = in.bits(5) + 257;
      const int ndist = in.bits(5) + 1;
      const int ncode = in.bits(4) + 4;
      std::array<int, 320> lengths{};
      for (int i = 0; i < ncode; ++i) {
        lengths[static_cast<size_t>(k_order[i])] = in.bits(3);
      }
      const Huffman lencode = build(lengths.data(), 19);
      lengths.fill(0);
      for (int index = 0; index < nlen + ndist;) {
        int symbol = decode(in, lencode);
        if (symbol < 16) {
          lengths[static_cast<size_t>(index++)] = symbol;
          continue;
        }
        int len = 0;
        if (symbol == 16) {
          if (index == 0) {
            throw std::runtime_error("inflate: repeat with no length");
          }
          len = lengths[static_cast<size_t>(index - 1)];
          symbol = 3 + in.bits(2);
        } else if (symbol == 17) {
          symbol = 3 + in.bits(3);
        } else {
          symbol = 11 + in.bits(7);
        }
        if (index + symbol > nlen + ndist) {
          throw std::runtime_error("inflate: too many lengths");
        }
        while (symbol-- > 0) {
          lengths[static_cast<size_t>(index++)] = len;
        }
      }
      codes(in, out, build(lengths.data(), nlen), build(lengths.data() + nlen, ndist));
    } else {
      throw std::runtime_error("inflate: bad block type");
    }
  }
  return out;
}

inline uint32_t be32(std::string_view s, size_t at) {
  return (static_cast<uint32_t>(static_cast<uint8_t>(s[at])) << 24) |
         (static_cast<uint32_t>(static_cast<uint8_t>(s[at + 1])) << 16) |
         (static_cast<uint32_t>(static_cast<uint8_t>(s[at + 2])) << 8) | static_cast<uint8_t>(s[at + 3]);
}

}  // namespace png_detail

inline Image decode_png(std::string_view file) {
  using namespace png_detail;
  if (file.substr(0, 8) != std::string_view("\x89PNG\r\n\x1a\n", 8)) {
    throw std::runtime_error("not a PNG");
  }
  Image img;
  int channels = 0;
  std::string idat;
  for (size_t at = 8; at + 12 <= file.size();) {
    const uint32_t len = be32(file, at);
    const std::string_view type = file.substr(at + 4, 4);
    const std::string_view body = file.substr(at + 8, len);
    if (type == "IHDR") {
      img.width = be32(body, 0);
      img.height = be32(body, 4);
      const int depth = static_cast<uint8_t>(body[8]);
      const int colour = static_cast<uint8_t>(body[9]);
      if (depth != 8 || (colour != 2 && colour != 6) || body[12] != 0) {
        throw std::runtime_error("unsupported PNG format");
      }
      channels = colour == 6 ? 4 : 3;
    } else if (type == "IDAT") {
      idat += body;
    } else if (type == "IEND") {
      break;
    }
    at += 12 + len;
  }
  const std::string raw = inflate(idat);
  const size_t stride = static_cast<size_t>(img.width) * static_cast<size_t>(channels);
  if (channels == 0 || raw.size() < (stride + 1) * img.height) {
    throw std::runtime_error("PNG data too short");
  }
  std::vector<uint8_t> prev(stride, 0), cur(stride, 0);
  img.rgb.reserve(static_cast<size_t>(img.width) * img.height);
  for (size_t y = 0; y < img.height; ++y) {
    const size_t row = y * (stride + 1);
    const int filter = static_cast<uint8_t>(raw[row]);
    for (size_t i = 0; i < stride; ++i) {
      const int x = static_cast<uint8_t>(raw[row + 1 + i]);
      const int a = i >= static_cast<size_t>(channels) ? cur[i - static_cast<size_t>(channels)] : 0;
      const int b = prev[i];
      const int c = i >= static_cast<size_t>(channels) ? prev[i - static_cast<size_t>(channels)] : 0;
      int predictor = 0;
      switch (filter) {
        case 0:
          predictor = 0;
          break;
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = (a + b) / 2;
          break;
        case 4: {
          const int p = a + b - c;
          const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default:
          throw std::runtime_error("bad PNG filter");
      }
      cur[i] = static_cast<uint8_t>((x + predictor) & 0xff);
    }
    for (size_t px = 0; px < img.width; ++px) {
      const size_t o = px * static_cast<size_t>(channels);
      img.rgb.push_back({cur[o], cur[o + 1], cur[o + 2]});
    }
    std::swap(prev, cur);
  }
  return img;
}

}  // namespace ptsuite::report::html::testing
