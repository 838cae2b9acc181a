#include "device/sysfs.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <system_error>

namespace ptsuite::device::sysfs {

namespace fs = std::filesystem;

std::optional<DevNum> parse_devnum(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 >= text.size()) {
    return std::nullopt;
  }
  DevNum out;
  unsigned* parts[2] = {&out.major, &out.minor};
  std::string_view pieces[2] = {text.substr(0, colon), text.substr(colon + 1)};
  for (int i = 0; i < 2; ++i) {
    unsigned value = 0;
    for (const char c : pieces[i]) {
      if (c < '0' || c > '9') {
        return std::nullopt;
      }
      value = value * 10 + static_cast<unsigned>(c - '0');
    }
    *parts[i] = value;
  }
  return out;
}

std::optional<std::string> read_attr(const fs::path& path) {
  std::ifstream in(path);
  if (!in) {
    return std::nullopt;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    return std::nullopt;
  }
  std::string text = buffer.str();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t' || text.back() == '\0')) {
    text.pop_back();
  }
  return text;
}

std::optional<uint64_t> read_attr_u64(const fs::path& path) {
  const auto text = read_attr(path);
  uint64_t value = 0;
  if (!text || text->empty() ||
      std::from_chars(text->data(), text->data() + text->size(), value).ptr != text->data() + text->size()) {
    return std::nullopt;
  }
  return value;
}

std::vector<std::string> list_dir(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

std::optional<BlockNode> node_from_dir(const fs::path& link) {
  std::error_code ec;
  const fs::path dir = fs::canonical(link, ec);
  if (ec) {
    return std::nullopt;
  }
  const auto dev = read_attr(dir / "dev");
  const auto devnum = dev ? parse_devnum(*dev) : std::nullopt;
  if (!devnum) {
    return std::nullopt;
  }
  BlockNode node;
  node.devnum = *devnum;
  node.dir = dir;
  node.name = dir.filename().string();
  node.is_partition = fs::exists(dir / "partition", ec);
  node.disk_name = node.is_partition ? dir.parent_path().filename().string() : node.name;
  return node;
}

}  // namespace

std::optional<BlockNode> node_by_devnum(DevNum devnum, const SystemRoots& roots) {
  return node_from_dir(fs::path(roots.sys) / "dev" / "block" /
                       (std::to_string(devnum.major) + ":" + std::to_string(devnum.minor)));
}

std::optional<BlockNode> node_by_name(const std::string& name, const SystemRoots& roots) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
    return std::nullopt;
  }
  return node_from_dir(fs::path(roots.sys) / "class" / "block" / name);
}

std::optional<BlockNode> node_by_dev_path(const std::string& path, const SystemRoots& roots) {
  static const std::string k_dev_prefix = "/dev/";
  if (path.rfind(k_dev_prefix, 0) != 0) {
    return std::nullopt;
  }
  // Follow /dev symlinks (by-id, mapper) inside roots.dev, then use the kernel name.
  const fs::path in_root = fs::path(roots.dev) / path.substr(k_dev_prefix.size());
  std::error_code ec;
  const fs::path resolved = fs::canonical(in_root, ec);
  if (!ec) {
    if (auto node = node_by_name(resolved.filename().string(), roots)) {
      return node;
    }
  }
  return node_by_name(fs::path(path).filename().string(), roots);
}

std::vector<BlockNode> partitions_of(const BlockNode& disk, const SystemRoots& roots) {
  std::vector<BlockNode> parts;
  std::error_code ec;
  for (const auto& name : list_dir(disk.dir)) {
    if (fs::exists(disk.dir / name / "partition", ec)) {
      if (auto node = node_by_name(name, roots)) {
        parts.push_back(*node);
      } else if (auto direct = node_from_dir(disk.dir / name)) {
        parts.push_back(*direct);
      }
    }
  }
  return parts;
}

std::vector<std::string> holders_of(const BlockNode& node) { return list_dir(node.dir / "holders"); }
std::vector<std::string> slaves_of(const BlockNode& node) { return list_dir(node.dir / "slaves"); }

std::string unescape_octal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size()) {
      const char a = text[i + 1], b = text[i + 2], c = text[i + 3];
      if (a >= '0' && a <= '3' && b >= '0' && b <= '7' && c >= '0' && c <= '7') {
        out.push_back(static_cast<char>((a - '0') * 64 + (b - '0') * 8 + (c - '0')));
        i += 3;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

std::vector<MountEntry> read_mountinfo(const SystemRoots& roots) {
  std::vector<MountEntry> mounts;
  std::ifstream in(fs::path(roots.proc) / "self" / "mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // id parent maj:min root mount-point options [optional...] - fstype source super-options
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string word; fields >> word;) {
      words.push_back(word);
    }
    const auto dash = std::find(words.begin(), words.end(), "-");
    if (words.size() < 6 || dash == words.end() || std::distance(dash, words.end()) < 3) {
      continue;
    }
    const auto devnum = parse_devnum(words[2]);
    if (!devnum) {
      continue;
    }
    mounts.push_back(
        MountEntry{*devnum, unescape_octal(words[4]), unescape_octal(*(dash + 1)), unescape_octal(*(dash + 2))});
  }
  return mounts;
}

namespace {

std::vector<std::string> read_swaps_of_type(const SystemRoots& roots, const std::string& wanted) {
  std::vector<std::string> out;
  std::ifstream in(fs::path(roots.proc) / "swaps");
  std::string line;
  std::getline(in, line);  // header: Filename Type Size Used Priority
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name, type;
    if (fields >> name >> type && type == wanted) {
      out.push_back(unescape_octal(name));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> read_swap_devices(const SystemRoots& roots) { return read_swaps_of_type(roots, "partition"); }
std::vector<std::string> read_swap_files(const SystemRoots& roots) { return read_swaps_of_type(roots, "file"); }

}  // namespace ptsuite::device::sysfs

namespace ptsuite::device::sysfs {

std::vector<LoopDevice> attached_loop_devices(const SystemRoots& roots) {
  std::vector<LoopDevice> out;
  for (const std::string& name : list_dir(fs::path(roots.sys) / "class" / "block")) {
    if (name.rfind("loop", 0) != 0) {
      continue;
    }
    const auto node = node_by_name(name, roots);
    if (!node || node->is_partition) {
      continue;
    }
    if (auto backing = read_attr(node->dir / "loop" / "backing_file"); backing && !backing->empty()) {
      out.push_back({*node, *backing});
    }
  }
  return out;
}

}  // namespace ptsuite::device::sysfs
