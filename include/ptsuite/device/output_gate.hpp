// Contract: THE gate every path a command writes passes (issue 36): --out files and
// directories, --json FILE, --html, report --out, exports, captures, keys, the history
// database. The cli makes one OutputGate per command invocation at the start of its action and
// tells it, before asking for any output, what the command reads and which targets it writes:
//
//   device::OutputGate gate("capture");
//   gate.add_input(file, "FILE");                      // every file the command reads
//   gate.add_target(target, "--target");               // every target, before it is written
//   OutputPath json = gate.file(args.json, "--json");  // each output: checked, tokenized
//   OutputDir out = gate.directory(args.out, "--out", OutputGate::Existing::must_be_empty);
//
// The writers (util/output_file.hpp) take only these tokens, and only this gate makes them
// (with OutputDir::file() for the files of a directory it let through). An output is refused
// before anything is written:
//   exit 3 (SafetyRefusal), a storage object that writing would damage:
//     * a device node or any special file (block or character device - /dev/null and
//       /dev/full included: leave the option out to write nothing -, FIFO, socket) and a
//       symbolic link (an output is a regular file the writer replaces by rename, and a
//       rename over a node or link is refused too);
//     * a file in the storage relation set of any target of the command (the target itself,
//       a loop device's backing file under it: device/target_gate.hpp), the backing file of
//       any attached loop device on the system, an active swap file, a file another ptsuite
//       holds as its target;
//   exit 2 (UsageError), a clash among the command's own paths:
//     * an input of the same command (same inode or same path), e.g. replay's capture file;
//     * another output of the same command (same path), e.g. --html equal to --out;
//     * an output inside a directory the command fills (a run directory, Existing::must_be_empty),
//       e.g. --json-out or --db inside --out: the command's own files may take its name, and
//       the run directory's manifest and resume expect only them;
//     * a missing or unwritable parent directory, a directory where a file is wanted, a
//       non-empty directory where a new or empty one is wanted.
// Paths are made absolute here, once (the parent directory canonical), and the tokens carry
// the protected inodes so every later write re-checks its destination.
//
// Reads /proc, sysfs and the lock directory; creates nothing (an output directory is created
// by OutputDir::create() when the command first writes). Single-threaded: one gate per
// command, used from its main thread.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <ptsuite/device/safety.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::device {

class OutputGate {
 public:
  explicit OutputGate(std::string command, SystemRoots roots = {}, std::string lock_dir = "/run/lock");

  // A path the command reads (a file or a directory; a missing one is ignored).
  void add_input(const std::string& path, const std::string& option);
  // A target the command writes (before it is written): it and the files of its storage
  // relation set are protected.
  void add_target(const std::string& path, const std::string& option);

  // An output file (replaced atomically by the writer).
  [[nodiscard]] OutputPath file(const std::string& path, const std::string& option);
  enum class Existing {
    must_be_empty,  // a run directory: new, or an existing empty directory
    may_hold_files  // an existing directory gains files (report --format csv --out DIR)
  };
  // An output directory (not created here: OutputDir::create()).
  [[nodiscard]] OutputDir directory(const std::string& path, const std::string& option, Existing existing);
  // A database file the command reads and writes in place (the SQLite history): like file(),
  // but an existing regular file is expected (it is not replaced), and its directory may not
  // exist yet (its first existing ancestor must be a writable directory).
  [[nodiscard]] OutputPath database(const std::string& path, const std::string& option);

 private:
  struct Claimed {
    std::filesystem::path path;  // absolute, parent canonical
    dev_t dev = 0;               // identity when it exists (ino 0: did not exist)
    ino_t ino = 0;
    std::string option;
    bool fills = false;  // a directory the command fills (Existing::must_be_empty): nothing else inside
  };
  void refresh_system_files();
  void check_existing_file(const std::filesystem::path& path, const std::string& option, dev_t dev, ino_t ino,
                           bool may_be_input);
  void check_clash(const Claimed& c, bool may_be_input) const;

  std::string m_command;
  SystemRoots m_roots;
  std::string m_lock_dir;
  std::shared_ptr<ProtectedFiles> m_protect;  // shared with every token made
  std::vector<Claimed> m_inputs;
  std::vector<Claimed> m_outputs;
  size_t m_target_protected = 0;  // m_protect's first entries: the targets' (kept on refresh)
};

}  // namespace ptsuite::device
