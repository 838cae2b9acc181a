#include "device/storage_graph.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <deque>

#include <ptsuite/util/printable.hpp>

namespace ptsuite::device::graph {

namespace {

// A bound on the walk: a real system's connected set is a handful of objects; a hostile or
// broken sysfs (a holder loop) must not make the gate spin.
constexpr size_t k_max_steps = 4096;

// sysfs sizes and partition starts are in 512-byte sectors whatever the logical block size.
std::optional<uint64_t> sectors_in_bytes(const std::filesystem::path& path) {
  const auto sectors = sysfs::read_attr_u64(path);
  if (!sectors || *sectors > k_unknown_size / 512) return std::nullopt;
  return *sectors * 512;
}

uint64_t add_saturating(uint64_t a, uint64_t b) { return b > k_unknown_size - a ? k_unknown_size : a + b; }

StorageObject block_object(const sysfs::BlockNode& node) {
  StorageObject o;
  o.block = node;
  o.size_bytes = sectors_in_bytes(node.dir / "size").value_or(k_unknown_size);
  return o;
}

// A window [offset, offset + length) of the lower object, seen from below: the part of
// `lower_range` it presents, in the upper object's coordinates.
ByteRange upward(ByteRange lower_range, uint64_t offset, uint64_t length) {
  const ByteRange window{offset, add_saturating(offset, length)};
  const ByteRange both = intersect(lower_range, window);
  if (both.empty()) return both;
  return {both.begin - offset, both.end == k_unknown_size ? k_unknown_size : both.end - offset};
}

// The upper object's `range`, in the lower object's coordinates (the window starts at offset).
ByteRange downward(ByteRange range, uint64_t offset, uint64_t length) {
  const ByteRange clipped = intersect(range, {0, length});
  if (clipped.empty()) return clipped;
  return {add_saturating(offset, clipped.begin),
          clipped.end == k_unknown_size ? k_unknown_size : add_saturating(offset, clipped.end)};
}

struct Candidate {
  StorageObject object;
  ByteRange range;
  Edge edge;
};

int loop_index(const StorageSet& s, const StorageObject& o) {
  if (!o.block) return -1;
  for (size_t i = 0; i < s.loops.size(); ++i) {
    if (s.loops[i].loop.node.devnum == o.block->devnum) return static_cast<int>(i);
  }
  return -1;
}

bool backs(const LoopWindow& w, const StorageObject& o) {
  if (o.block) return w.backing_block && *w.backing_block == o.block->devnum;
  return o.file && w.backing_file_id && *w.backing_file_id == *o.file;
}

// Loop devices over `o` whose window overlaps `range`.
void loops_over(const StorageSet& s, const StorageObject& o, ByteRange range, std::vector<Candidate>& out) {
  for (const LoopWindow& w : s.loops) {
    if (!backs(w, o)) continue;
    const ByteRange r = upward(range, w.offset_bytes, w.size_bytes);
    if (!r.empty()) out.push_back({block_object(w.loop.node), r, Edge::loop_over});
  }
}

// What backs a loop device member, over the bytes it presents.
void loop_backing(const LoopWindow& w, ByteRange range, const SystemRoots& roots, std::vector<Candidate>& out) {
  const ByteRange r = downward(range, w.offset_bytes, w.size_bytes);
  if (r.empty()) return;
  if (w.backing_block) {
    if (const auto node = sysfs::node_by_devnum(*w.backing_block, roots)) {
      out.push_back({block_object(*node), r, Edge::loop_backing});
    }
  } else if (w.backing_file_id) {
    StorageObject f;
    f.file = w.backing_file_id;
    f.path = w.loop.backing_file;
    out.push_back({std::move(f), r, Edge::loop_backing});
  }
}

void partitions_and_disk(const sysfs::BlockNode& node, ByteRange range, const SystemRoots& roots,
                         std::vector<Candidate>& out) {
  if (node.is_partition) {
    const auto disk = sysfs::node_by_name(node.disk_name, roots);
    if (!disk) return;
    const auto start = sectors_in_bytes(node.dir / "start");
    const uint64_t size = sectors_in_bytes(node.dir / "size").value_or(k_unknown_size);
    // An unknown start: the whole disk (conservative).
    const ByteRange r = start ? downward(range, *start, size) : ByteRange{};
    if (!r.empty()) out.push_back({block_object(*disk), r, Edge::partition_disk});
    return;
  }
  for (const sysfs::BlockNode& part : sysfs::partitions_of(node, roots)) {
    const auto start = sectors_in_bytes(part.dir / "start");
    const uint64_t size = sectors_in_bytes(part.dir / "size").value_or(k_unknown_size);
    const ByteRange r = start ? upward(range, *start, size) : ByteRange{};
    if (!r.empty()) out.push_back({block_object(part), r, Edge::disk_partition});
  }
}

// Holders and slaves cover each other whole (their mapping is not read). Holders first: in a
// broken sysfs where two devices hold each other, each is reached as the other's holder (the
// edge that refuses), not as its slave.
void stacked(const sysfs::BlockNode& node, const SystemRoots& roots, std::vector<Candidate>& out) {
  for (const std::string& name : sysfs::holders_of(node)) {
    if (const auto h = sysfs::node_by_name(name, roots)) out.push_back({block_object(*h), {}, Edge::slave_holder});
  }
  for (const std::string& name : sysfs::slaves_of(node)) {
    if (const auto s = sysfs::node_by_name(name, roots)) out.push_back({block_object(*s), {}, Edge::holder_slave});
  }
}

std::vector<Candidate> neighbours(const StorageSet& s, const Member& m, const SystemRoots& roots) {
  std::vector<Candidate> out;
  if (m.object.block) {
    if (const LoopWindow* w = s.loop_of(m)) loop_backing(*w, m.range, roots, out);
    partitions_and_disk(*m.object.block, m.range, roots, out);
    stacked(*m.object.block, roots, out);
  }
  loops_over(s, m.object, m.range, out);
  return out;
}

StorageSet resolve(StorageObject target, const SystemRoots& roots) {
  StorageSet s;
  s.loops = read_loop_windows(roots);
  Member first;
  first.range = {0, target.size_bytes};
  first.object = std::move(target);
  first.loop = loop_index(s, first.object);
  s.members.push_back(std::move(first));
  std::deque<size_t> todo{0};
  for (size_t steps = 0; !todo.empty() && steps < k_max_steps; ++steps) {
    const size_t i = todo.front();
    todo.pop_front();
    for (Candidate& c : neighbours(s, s.members[i], roots)) {
      const auto same =
          std::find_if(s.members.begin(), s.members.end(), [&](const Member& m) { return m.object == c.object; });
      if (same == s.members.end()) {
        const int loop = loop_index(s, c.object);
        s.members.push_back({std::move(c.object), c.range, c.edge, static_cast<int>(i), loop});
        todo.push_back(s.members.size() - 1);
      } else if (const ByteRange hull{std::min(same->range.begin, c.range.begin),
                                      std::max(same->range.end, c.range.end)};
                 !(hull == same->range)) {
        same->range = hull;  // reached over more bytes: walk on from it again
        todo.push_back(static_cast<size_t>(same - s.members.begin()));
      }
    }
  }
  return s;
}

std::string window_text(const LoopWindow* w) {
  if (w == nullptr || w->offset_bytes == 0) return {};
  return w->size_bytes == k_unknown_size
             ? fmt::format(" from byte {}", w->offset_bytes)
             : fmt::format(" (bytes {} to {})", w->offset_bytes, add_saturating(w->offset_bytes, w->size_bytes));
}

}  // namespace

bool overlaps(ByteRange a, ByteRange b) noexcept { return a.begin < b.end && b.begin < a.end; }

ByteRange intersect(ByteRange a, ByteRange b) noexcept { return {std::max(a.begin, b.begin), std::min(a.end, b.end)}; }

bool is_upward(Edge edge) noexcept {
  return edge == Edge::loop_over || edge == Edge::disk_partition || edge == Edge::slave_holder;
}

std::string StorageObject::name() const { return block ? block->name : printable(path); }

bool StorageObject::operator==(const StorageObject& other) const noexcept {
  if (block && other.block) return block->devnum == other.block->devnum;
  return file && other.file && *file == *other.file;
}

const LoopWindow* StorageSet::loop_of(const Member& m) const {
  return m.loop >= 0 ? &loops[static_cast<size_t>(m.loop)] : nullptr;
}

std::vector<size_t> StorageSet::path_to(size_t index) const {
  std::vector<size_t> path;
  for (int i = static_cast<int>(index); i >= 0; i = members[static_cast<size_t>(i)].parent) {
    path.push_back(static_cast<size_t>(i));
  }
  std::reverse(path.begin(), path.end());
  return path;
}

std::string StorageSet::relation(size_t index) const {
  std::string out;
  for (const size_t j : path_to(index)) {
    const Member& m = members[j];
    if (m.parent < 0) continue;
    const Member& p = members[static_cast<size_t>(m.parent)];
    std::string part;
    switch (m.edge) {
      case Edge::loop_backing:
        part = fmt::format("{} is a loop device over {}{}", p.object.name(), m.object.name(), window_text(loop_of(p)));
        break;
      case Edge::loop_over:
        part = fmt::format("{} is a loop device over {}{}", m.object.name(), p.object.name(), window_text(loop_of(m)));
        break;
      case Edge::partition_disk:
        part = fmt::format("{} is a partition of {}", p.object.name(), m.object.name());
        break;
      case Edge::disk_partition:
        part = fmt::format("{} is a partition of {}", m.object.name(), p.object.name());
        break;
      case Edge::holder_slave:
        part = fmt::format("{} is stacked on {}", p.object.name(), m.object.name());
        break;
      case Edge::slave_holder:
        part = fmt::format("{} is stacked on {}", m.object.name(), p.object.name());
        break;
      case Edge::target:
        break;
    }
    out += (out.empty() ? "" : "; ") + part;
  }
  return out;
}

StorageSet resolve_block(const sysfs::BlockNode& node, const SystemRoots& roots) {
  return resolve(block_object(node), roots);
}

StorageSet resolve_file(FileId id, const std::string& path, uint64_t size_bytes, const SystemRoots& roots) {
  StorageObject o;
  o.file = id;
  o.path = path;
  o.size_bytes = size_bytes;
  return resolve(std::move(o), roots);
}

std::vector<std::pair<FileId, std::string>> loop_backing_files(const SystemRoots& roots) {
  std::vector<std::pair<FileId, std::string>> out;
  for (const LoopWindow& w : read_loop_windows(roots)) {
    if (w.backing_file_id) out.emplace_back(*w.backing_file_id, w.loop.node.name);
  }
  return out;
}

}  // namespace ptsuite::device::graph
