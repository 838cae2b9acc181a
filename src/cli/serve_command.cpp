// `ptsuite serve`: the lab's page (docs/serve.md): the history's runs, drives, comparisons,
// trends and campaigns in a browser, read-only, on 127.0.0.1:8080 unless --listen (then with
// --token-file); `--export DIR` writes the same pages as a static site and exits.
// Exit 0 when stopped by SIGINT/SIGTERM or when the export is written; 2 for bad input (a
// non-loopback --listen without a token, a history that is not ptsuite's); 5 when the address
// cannot be bound; 75 when the history cannot be reached.
#include <fmt/format.h>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/fleet/slurm.hpp>
#include <ptsuite/history/location.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/serve/export.hpp>
#include <ptsuite/serve/server.hpp>
#include <ptsuite/serve/site.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/text.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"
#include "cli/signals.hpp"

namespace ptsuite::cli {

namespace {

struct ServeOptions {
  std::string db;
  std::string listen = "127.0.0.1:8080";
  std::string token_file;
  std::string export_dir;
  bool slurm = false;
};

std::string read_token(const std::string& path) {
  if (path.empty()) return {};
  return std::string(trim(read_input_file(path, 4096, "--token-file")));
}

int run_serve(const ServeOptions& o) {
  device::OutputGate gate("serve");
  if (!o.token_file.empty()) gate.add_input(o.token_file, "--token-file");
  std::optional<OutputDir> out;
  if (!o.export_dir.empty()) {
    out = gate.directory(o.export_dir, "--export", device::OutputGate::Existing::must_be_empty);
  }
  serve::ServerOptions listen = serve::parse_listen(o.listen);
  listen.token = read_token(o.token_file);
  if (!out) serve::check_listen(listen);  // before the database is opened
  history::HistoryStore store = history::HistoryStore::open_readonly(gate_history_db(gate, o.db));
  serve::JobSource jobs;
  if (o.slurm) jobs = [] { return fleet::list_jobs(); };
  if (out) {
    const serve::ExportResult r = serve::export_site(store, *out, jobs);
    fmt::print("wrote {} file(s) to {} ({} page(s) say what they could not show)\n", r.files, out->string(), r.errors);
    return 0;
  }
  serve::SiteOptions options;
  options.jobs = jobs;
  serve::Site site(store, options);
  const StopSignals signals;
  serve::Server server(site, listen);
  const std::string host = listen.host.find(':') != std::string::npos ? "[" + listen.host + "]" : listen.host;
  fmt::print("serving {} on http://{}:{}/{}\n", store.backend().describe(), host, server.port(),
             listen.token.empty() ? "" : "?token=(the token file's content)");
  std::fflush(stdout);
  std::thread http([&server] { server.run(); });
  while (!signals.flag().load()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  server.stop();
  http.join();
  return 0;
}

}  // namespace

void register_serve_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<ServeOptions>();
  CLI::App* command = app.add_subcommand(
      "serve", "The lab's page: runs, drives, comparisons, trends and campaigns from the history, in a browser");
  add_shared_option(command, "--db", o->db,
                    "The history (default: $PTSUITE_HISTORY_DB, else the local SQLite file); read only")
      ->check(paths::database());
  command
      ->add_option("--listen", o->listen,
                   "ADDRESS:PORT to serve on (default 127.0.0.1:8080); an address other hosts reach needs --token-file")
      ->check(paths::none());
  command
      ->add_option("--token-file", o->token_file,
                   "File holding the secret every request must carry (at least 16 bytes; `openssl rand -hex 32`)")
      ->check(paths::input());
  command->add_flag("--slurm", o->slurm, "Show the fleet's job states from Slurm (squeue) on the campaign pages");
  command->add_option("--export", o->export_dir, "Write the pages as a static site into this new or empty directory")
      ->check(paths::output_dir());
  command->callback([o, &slot] { slot.action = [o] { return run_serve(*o); }; });
}

}  // namespace ptsuite::cli
