#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/temp_dir.hpp"

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite {
namespace {

// Known answers for the libcrypto-backed hasher: the FIPS 180-4 examples as published with
// the NIST CSRC "Examples with Intermediate Values".
TEST(Sha256, NistVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjkl"
                       "mnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionA) {
  Sha256 hasher;
  const std::string thousand(1000, 'a');
  for (int i = 0; i < 1000; ++i) {
    hasher.update(thousand);
  }
  EXPECT_EQ(to_hex(hasher.final()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the padding boundary: 55 bytes still fit the length in the last block, 56
// spill into an extra block, 64 is exactly one block. Expected values from an independent
// implementation (Python hashlib).
TEST(Sha256, PaddingBoundaries) {
  EXPECT_EQ(sha256_hex(std::string(55, 'a')), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(sha256_hex(std::string(56, 'a')), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(sha256_hex(std::string(63, 'a')), "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
  EXPECT_EQ(sha256_hex(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  EXPECT_EQ(sha256_hex(std::string(65, 'a')), "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0");
  EXPECT_EQ(sha256_hex(std::string(119, 'a')), "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb");
  EXPECT_EQ(sha256_hex(std::string(120, 'a')), "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c");
}

std::string all_bytes_three_times() {
  std::string data;
  for (int round = 0; round < 3; ++round) {
    for (int b = 0; b < 256; ++b) {
      data.push_back(static_cast<char>(b));
    }
  }
  return data;
}

// The digest must not depend on how the input is split into update() calls.
TEST(Sha256, StreamingIsSplitIndependent) {
  const std::string data = all_bytes_three_times();
  const std::string expected = "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363";
  ASSERT_EQ(sha256_hex(data), expected);
  for (size_t split = 0; split <= data.size(); split += 7) {
    Sha256 hasher;
    hasher.update(std::string_view(data).substr(0, split));
    hasher.update(std::string_view(data).substr(split));
    EXPECT_EQ(to_hex(hasher.final()), expected) << "split at " << split;
  }
  Sha256 bytewise;
  for (const char c : data) {
    bytewise.update(&c, 1);
  }
  EXPECT_EQ(to_hex(bytewise.final()), expected);
}

TEST(Sha256, ResetStartsANewMessage) {
  Sha256 hasher;
  hasher.update("something else");
  (void)hasher.final();
  hasher.reset();
  hasher.update("abc");
  EXPECT_EQ(to_hex(hasher.final()), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, HashesFiles) {
  const test_support::ShmTempDir temp("ptsuite-sha256");
  const std::filesystem::path dir = temp.path();
  const std::filesystem::path file = dir / "data.bin";
  {
    std::ofstream out(file, std::ios::binary);
    out << all_bytes_three_times();
  }
  EXPECT_EQ(sha256_file_hex(file), "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363");
  { std::ofstream out(dir / "empty", std::ios::binary); }
  EXPECT_EQ(sha256_file_hex(dir / "empty"), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_THROW(sha256_file_hex(dir / "missing"), SystemError);
}

}  // namespace
}  // namespace ptsuite
