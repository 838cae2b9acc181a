// `ptsuite serve` in a real browser, on both databases: per database (SQLite in /dev/shm, and a
// private PostgreSQL on a Unix socket, support/postgres_server.hpp) one lab history, one server
// (in this process, on 127.0.0.1 and a free port, with a token) and one headless Chromium driven
// over the DevTools protocol (support/chromium_session.hpp), for the one test of that database
// (each check below one part of it, named in its failures). The
// history holds every kind a lab has: 130 generated PTS runs in campaigns c000-c003, PTS runs
// whose document is on disk or in a stored bundle, scenario runs, an application run, a replay
// (signed, stored, unsigned: serve_fixture.hpp) and a drive whose strings are markup. Per database:
//   * the runs list shows every kind and filters by kind, model and verdict (the form, submitted);
//   * each kind's run page shows its verification status and its report opens from the link;
//   * a drive's page lists its runs of every kind;
//   * a campaign page follows the scheduler's step while it is open, by events (two pages) and
//     by polling (a third, refused a stream);
//   * compare and trend pages have every row; hostile strings are inert;
//   * a token guards every page (a browser context without the cookie sees none);
//   * `ptsuite serve --export DIR` (the binary) writes the same pages, opened from file://;
//   * the pages fit a 1400 px screen (screenshots: PTSUITE_SERVE_SCREENSHOTS=DIR keeps them).
// Skipped with the reason when Chromium (or, for PostgreSQL, its server) is not installed.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include <httplib.h>

#include <ptsuite/fleet/progress.hpp>
#include <ptsuite/serve/catalog.hpp>
#include <ptsuite/serve/server.hpp>
#include <ptsuite/util/subprocess.hpp>
#include "support/chromium_session.hpp"
#include "support/postgres_server.hpp"
#include "support/test_outputs.hpp"
#include "unit/serve/serve_fixture.hpp"

namespace ptsuite::serve {
namespace {

using testing::kHostileModel;
using testing::kKindSerial;
using testing::kLabRuns;

constexpr const char* kToken = "browser-suite-token-0123456789abcdef";
constexpr size_t kAllRuns = kLabRuns + 4 + 3;  // generated, the fixture's 4, every kind's 3
constexpr int kLiveTimeoutMs = 20'000;         // a live cell changes within a few 2 s periods
constexpr int kScreenWidthPx = 1400;

// One database's lab: history, server and browser. Torn down after its test, on every path.
struct Lab {
  std::unique_ptr<test_support::PostgresServer> postgres;  // destroyed last
  test_support::ShmTempDir dir{"ptsuite-serve-browser"};
  std::string db;  // what `ptsuite serve --db` takes
  testing::LabIds ids;
  testing::KindIds kinds;
  std::atomic<size_t> looks{0};
  std::unique_ptr<history::HistoryStore> store;
  std::unique_ptr<Site> site;
  std::unique_ptr<Server> server;
  std::thread thread;
  std::unique_ptr<test_support::ChromiumSession> browser;
  std::string tab;
  std::string base;

  ~Lab() {
    browser.reset();  // closes its pages' streams first
    if (server) server->stop();
    if (thread.joinable()) thread.join();
  }
};

history::HistoryDb history_of(const std::string& db) {
  return db.rfind("postgresql:", 0) == 0 ? history::HistoryDb{db, std::nullopt} : test_support::sqlite_history(db);
}

// The lab of `database` ("sqlite" or "postgresql"), or why there is none.
std::unique_ptr<Lab> make_lab(const std::string& database, std::string& skip) {
  auto lab = std::make_unique<Lab>();
  if (database == "postgresql") {
    lab->postgres = test_support::PostgresServer::start();
    if (!lab->postgres) return skip = test_support::PostgresServer::last_skip_reason(), nullptr;
    lab->db = lab->postgres->uri();
  } else {
    lab->db = lab->dir.file("history.sqlite");
  }
  {
    history::HistoryStore writable = history::HistoryStore::open(history_of(lab->db));
    lab->ids = testing::fill_test_lab(writable, lab->dir);
    lab->kinds = testing::add_every_kind(writable, lab->dir);
  }
  lab->store = std::make_unique<history::HistoryStore>(history::HistoryStore::open_readonly(history_of(lab->db)));
  SiteOptions options;
  // The scheduler: the kinds' drive runs in campaign c000, its step another one at every look.
  options.jobs = [l = lab.get()] {
    fleet::SlurmJob job;
    job.id = 4242;
    job.name = std::string("ptsuite-") + kKindSerial;
    job.state = "RUNNING";
    job.node = "host-00";
    const size_t step = 1 + (l->looks++ % 9);
    job.comment = fleet::progress_comment({"c000", "running", step, 10, "iops", "2026-12-02T10:00:00Z", ""});
    return std::vector<fleet::SlurmJob>{job};
  };
  lab->site = std::make_unique<Site>(*lab->store, options);
  ServerOptions o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.token = kToken;
  lab->server = std::make_unique<Server>(*lab->site, o);
  lab->thread = std::thread([l = lab.get()] { l->server->run(); });
  lab->base = "http://127.0.0.1:" + std::to_string(lab->server->port());
  lab->browser = test_support::ChromiumSession::start();
  if (!lab->browser) return skip = "chromium is not installed (apt-get install chromium): no browser", nullptr;
  lab->tab = lab->browser->open_tab();
  lab->browser->navigate(lab->tab, lab->base + "/runs?token=" + kToken);  // the cookie, for every page after
  return lab;
}

std::string quoted(const std::string& s) { return nlohmann::json(s).dump(); }

class ServeBrowser : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string skip;
    m_owned = make_lab(GetParam(), skip);
    if (!m_owned) GTEST_SKIP() << skip;
    m_lab = m_owned.get();
  }
  void TearDown() override { m_owned.reset(); }

  void open(const std::string& path_and_query) { m_lab->browser->navigate(m_lab->tab, m_lab->base + path_and_query); }
  nlohmann::json js(const std::string& expression) { return m_lab->browser->evaluate(m_lab->tab, expression); }
  std::string dom() { return m_lab->browser->dom(m_lab->tab); }
  size_t rows(const std::string& table) {
    return js("document.querySelectorAll('table[data-table=" + quoted(table) + "] tbody tr').length").get<size_t>();
  }
  // The text of every cell of a table's column (by its header), in row order, joined by '|'.
  std::string column(const std::string& table, const std::string& header) {
    return js("(() => { const t = document.querySelector('table[data-table=" + quoted(table) +
              "]'); if (!t) return '(no table)'; const i = [...t.tHead.rows[0].cells].findIndex(c => c.textContent "
              "=== " +
              quoted(header) +
              "); return [...t.tBodies[0].rows].map(r => r.cells[i].textContent).join('|'); "
              "})()")
        .get<std::string>();
  }
  std::string id(int64_t run) { return std::to_string(run); }

 public:
  // The parts of the one test per database (below).
  void the_runs_list_shows_every_kind_and_filters_by_kind_model_and_verdict();
  void each_kinds_run_page_shows_its_verification_and_opens_its_report();
  void a_drives_page_lists_its_runs_of_every_kind();
  void a_campaign_page_follows_the_step_while_open();
  void compare_and_trend_have_every_row();
  void hostile_strings_are_inert();
  void a_token_guards_every_page();
  void the_static_export_has_the_same_pages();
  void pages_fit_the_screen();

 protected:
  std::unique_ptr<Lab> m_owned;
  Lab* m_lab = nullptr;
};

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

void ServeBrowser::the_runs_list_shows_every_kind_and_filters_by_kind_model_and_verdict() {
  open("/runs?per=200");
  EXPECT_EQ(rows("runs"), kAllRuns);
  const std::string kinds = column("runs", "kind");
  EXPECT_EQ(occurrences(kinds, "scenario run"), 2u) << kinds;
  EXPECT_EQ(occurrences(kinds, "application run"), 1u);
  EXPECT_EQ(occurrences(kinds, "replay"), 1u);
  EXPECT_EQ(occurrences(kinds, "PTS run"), kAllRuns - 4);
  // The form, as a user submits it: kind "application run".
  m_lab->browser->follow(m_lab->tab,
                         "document.querySelector('select[name=kind]').value = 'app'; "
                         "document.querySelector('form').submit()");
  EXPECT_NE(js("location.search").get<std::string>().find("kind=app"), std::string::npos);
  EXPECT_EQ(column("runs", "id"), id(m_lab->kinds.app));
  open("/runs?kind=scenario&model=LAB%20MODEL%200");
  EXPECT_EQ(column("runs", "id"), id(m_lab->kinds.scenario)) << "the fixture's other scenario is another model";
  open("/runs?kind=pts&per=200");
  EXPECT_EQ(rows("runs"), kAllRuns - 4);
  open("/runs?verdict=none&per=200");
  EXPECT_EQ(rows("runs"), 4u) << "the kinds without a verdict";
  EXPECT_EQ(occurrences(column("runs", "verdict"), "(no verdict)"), 4u);
  EXPECT_EQ(js("document.querySelectorAll('table[data-table=runs] td.ok, table[data-table=runs] td.bad').length"), 0)
      << "a kind without a verdict is neither green nor red";
  open("/runs?verdict=not&per=200");
  const std::string not_compliant = column("runs", "kind");
  EXPECT_GE(rows("runs"), 19u) << "every 7th generated run";
  EXPECT_EQ(occurrences(not_compliant, "PTS run"), rows("runs")) << "only PTS runs have a verdict: " << not_compliant;
  open("/runs?verdict=compliant&kind=replay");
  EXPECT_EQ(rows("runs"), 0u);
}

struct KindPage {
  int64_t id;
  std::string status;  // the verification status
  std::string report;  // text the report page shows
  std::string link;    // the report link's text
};

void ServeBrowser::each_kinds_run_page_shows_its_verification_and_opens_its_report() {
  const testing::KindIds& k = m_lab->kinds;
  const std::vector<KindPage> pages = {
      {k.scenario, "verified", "write-pressure", "scenario run report"},
      {k.app, "verified", "pgbench", "application run report"},
      {k.replay, "not signed", "eplay", "replay report"},
      {m_lab->ids.bundled, "tampered", "IOPS", "SNIA report"},  // stored without a manifest
      {m_lab->ids.on_disk, "not available", "IOPS", "SNIA report"}};
  for (const KindPage& p : pages) {
    SCOPED_TRACE("run " + id(p.id));
    open("/run?id=" + id(p.id));
    EXPECT_EQ(js("document.title").get<std::string>().find("Run " + id(p.id)), 0u);
    EXPECT_EQ(js("document.querySelector('table[data-table=verification] tbody td:nth-child(2)').textContent"),
              p.status);
    EXPECT_EQ(js("document.querySelector('a[href*=\"run/report\"]').textContent"), p.link);
    if (p.link != "SNIA report") {
      EXPECT_EQ(js("document.querySelectorAll('table[data-table=tests] td.bad').length"), 0) << "red without a verdict";
    }
    m_lab->browser->follow(m_lab->tab, "document.querySelector('a[href*=\"run/report\"]').click()");
    EXPECT_NE(js("location.pathname").get<std::string>().find("/run/report"), std::string::npos);
    const std::string report = dom();
    EXPECT_NE(report.find("<svg"), std::string::npos) << report.substr(0, 600);
    EXPECT_NE(report.find(p.report), std::string::npos) << report.substr(0, 600);
    EXPECT_EQ(report.find("Not found"), std::string::npos);
  }
}

void ServeBrowser::a_drives_page_lists_its_runs_of_every_kind() {
  open(std::string("/drive?serial=") + kKindSerial);
  const std::string ids = column("runs", "id");
  for (const int64_t run : {m_lab->kinds.scenario, m_lab->kinds.app, m_lab->kinds.replay}) {
    EXPECT_NE(("|" + ids + "|").find("|" + id(run) + "|"), std::string::npos) << ids;
  }
  const std::string kinds = column("runs", "kind");
  for (const char* kind : {"PTS run", "scenario run", "application run", "replay"}) {
    EXPECT_NE(kinds.find(kind), std::string::npos) << kinds;
  }
  EXPECT_EQ(rows("runs"), 6u + 3u) << "the drive's 6 generated runs and its 3 of other kinds";
  open(std::string("/drives?serial=") + kKindSerial);
  EXPECT_EQ(column("drives", "last run"), id(m_lab->kinds.replay)) << "the replay is its latest run";
}

// The step cell of the kinds' drive on a campaign page.
std::string step_cell(test_support::ChromiumSession& b, const std::string& tab) {
  return b
      .evaluate(tab, std::string("(document.querySelector('tr[data-key=\"") + kKindSerial +
                         "\"] [data-live=step]') || {}).textContent")
      .get<std::string>();
}

void ServeBrowser::a_campaign_page_follows_the_step_while_open() {
  test_support::ChromiumSession& b = *m_lab->browser;
  // Two pages follow events (the server's limit), the third is refused a stream and polls.
  std::vector<std::string> tabs;
  const std::vector<std::string> transports = {"events", "events", "polling"};
  for (const std::string& transport : transports) {
    tabs.push_back(b.open_tab());
    b.navigate(tabs.back(), m_lab->base + "/campaign?name=c000");
    EXPECT_TRUE(b.wait_for(tabs.back(), "document.body.dataset.liveTransport === " + quoted(transport), 10'000))
        << "page " << tabs.size() << ": " << b.evaluate(tabs.back(), "document.body.dataset.liveTransport").dump();
  }
  for (const std::string& tab : tabs) {
    const std::string first = step_cell(b, tab);
    EXPECT_NE(first.find("/10"), std::string::npos) << first;
    const std::string changed = "(document.querySelector('tr[data-key=\"" + std::string(kKindSerial) +
                                "\"] [data-live=step]') || {}).textContent !== " + quoted(first);
    EXPECT_TRUE(b.wait_for(tab, changed, kLiveTimeoutMs)) << "the step stayed " << first;
  }
  for (const std::string& tab : tabs) b.close_tab(tab);
  // The spread per kind: the drive's latest PTS run counts among the PTS runs' spread although
  // its latest run is a replay, whose figures spread on their own.
  open("/campaign?name=c000");
  const std::string drives_of =
      "[...document.querySelectorAll('table[data-table=spread] tbody tr')].filter(r => "
      "r.cells[0].textContent === KIND && r.cells[1].textContent === 'LAB MODEL 0' && "
      "r.cells[2].textContent === METRIC).map(r => r.cells[4].textContent).join()";
  const auto drives = [&](const std::string& kind, const std::string& metric) {
    std::string expression = drives_of;
    expression.replace(expression.find("KIND"), 4, quoted(kind));
    expression.replace(expression.find("METRIC"), 6, quoted(metric));
    return js(expression).get<std::string>();
  };
  EXPECT_EQ(drives("PTS run", "iops/rnd_4KiB_read_iops"), "12") << "every LAB MODEL 0 drive of c000";
  EXPECT_EQ(drives("replay", "replay/iops"), "1");
}

void ServeBrowser::compare_and_trend_have_every_row() {
  open("/trend?model=LAB%20MODEL%200");
  const nlohmann::json trend =
      nlohmann::json::parse(m_lab->site->handle({"trend", {{"model", "LAB MODEL 0"}, {"format", "json"}}}).body);
  ASSERT_FALSE(trend.empty());
  EXPECT_EQ(rows("trend"), trend.size());
  EXPECT_GE(static_cast<int>(js("document.querySelectorAll('svg').length").get<int>()), 1);
  open("/compare?force=1&runs=" + id(m_lab->ids.on_disk) + "," + id(m_lab->ids.bundled));
  const std::string compare = dom();
  EXPECT_NE(compare.find("#" + id(m_lab->ids.on_disk)), std::string::npos) << compare.substr(0, 500);
  EXPECT_NE(compare.find("#" + id(m_lab->ids.bundled)), std::string::npos);
  EXPECT_NE(compare.find("<table"), std::string::npos);
}

void ServeBrowser::hostile_strings_are_inert() {
  open("/run?id=" + id(m_lab->ids.hostile));
  EXPECT_EQ(js("document.title").get<std::string>().find("Run "), 0u) << "no script set the title";
  EXPECT_EQ(js("document.querySelectorAll('img, b, script:not([src])').length"), 0);
  EXPECT_NE(js("document.body.textContent").get<std::string>().find(kHostileModel), std::string::npos)
      << "the model is text";
  for (const char* page : {"/drives", "/campaigns", "/runs?per=200"}) {
    open(page);
    EXPECT_EQ(js("document.querySelectorAll('img, b, script:not([src])').length"), 0) << page;
    EXPECT_EQ(js("document.title").get<std::string>().find("owned"), std::string::npos) << page;
  }
}

void ServeBrowser::a_token_guards_every_page() {
  httplib::Client client("127.0.0.1", m_lab->server->port());
  const auto refused = client.Get("/runs");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 401);
  EXPECT_EQ(client.Get("/runs", {{"Authorization", std::string("Bearer ") + kToken}})->status, 200);
  EXPECT_EQ(client.Get("/runs", {{"Authorization", "Bearer " + std::string(36, 'x')}})->status, 401);
  const auto post = client.Post("/runs", "x", "text/plain");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405) << "read-only";
  test_support::ChromiumSession& b = *m_lab->browser;
  const std::string stranger = b.open_tab(true);  // a browser context without the cookie
  b.navigate(stranger, m_lab->base + "/runs");
  EXPECT_EQ(b.dom(stranger).find("<h1>Runs</h1>"), std::string::npos) << "no page without the token";
  b.close_tab(stranger);
  open("/runs");
  EXPECT_NE(dom().find("<h1>Runs</h1>"), std::string::npos) << "the page with the cookie";
}

void ServeBrowser::the_static_export_has_the_same_pages() {
  const std::string site = m_lab->dir.file("site-" + GetParam());
  const ProgramResult r =
      run_program({PTSUITE_BINARY, "serve", "--db", m_lab->db, "--export", site}, "", uint64_t{300} * 1'000'000'000);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  test_support::ChromiumSession& b = *m_lab->browser;
  const std::string files = b.open_tab();
  b.navigate(files, "file://" + site + "/index.html");
  EXPECT_EQ(b.evaluate(files, "document.querySelectorAll('table[data-table=runs] tbody tr').length"),
            k_default_page_rows);
  EXPECT_NE(b.dom(files).find("kind"), std::string::npos);
  for (const int64_t run : {m_lab->kinds.scenario, m_lab->kinds.app, m_lab->kinds.replay}) {
    SCOPED_TRACE("run " + id(run));
    b.navigate(files, "file://" + site + "/" + static_file_name("run", {{"id", id(run)}}));
    open("/run?id=" + id(run));
    EXPECT_EQ(b.evaluate(files, "document.body.innerText"), js("document.body.innerText")) << "the same page";
    b.follow(files, "document.querySelector('a[href*=\"run_report\"]').click()");
    EXPECT_NE(b.dom(files).find("<svg"), std::string::npos) << "its report, from the file beside it";
  }
  b.navigate(files, "file://" + site + "/" + static_file_name("drive", {{"serial", kKindSerial}}));
  open(std::string("/drive?serial=") + kKindSerial);
  EXPECT_EQ(b.evaluate(files, "document.body.innerText"), js("document.body.innerText"));
  b.navigate(files, "file://" + site + "/" + static_file_name("campaign", {{"name", "c000"}}));
  EXPECT_EQ(b.evaluate(files, "document.querySelectorAll('table[data-table=drives] tbody tr').length"), 24)
      << "campaign c000's drives";
  b.close_tab(files);
}

void ServeBrowser::pages_fit_the_screen() {
  const char* env = std::getenv("PTSUITE_SERVE_SCREENSHOTS");
  const std::string keep = env == nullptr ? "" : env;
  const testing::KindIds& k = m_lab->kinds;
  const std::vector<std::pair<std::string, std::string>> pages = {
      {"runs", "/runs"},
      {"run-scenario", "/run?id=" + id(k.scenario)},
      {"report-scenario", "/run/report?id=" + id(k.scenario)},
      {"run-app", "/run?id=" + id(k.app)},
      {"report-app", "/run/report?id=" + id(k.app)},
      {"report-replay", "/run/report?id=" + id(k.replay)},
      {"drive", std::string("/drive?serial=") + kKindSerial},
      {"drives", "/drives"},
      {"campaign", "/campaign?name=c000"},
      {"trend", "/trend?model=LAB%20MODEL%200"}};
  for (const auto& [name, page] : pages) {
    open(page);
    const std::string png = m_lab->browser->screenshot_png(m_lab->tab, kScreenWidthPx);
    EXPECT_EQ(png.substr(1, 3), "PNG") << name;
    EXPECT_LE(js("document.documentElement.scrollWidth").get<int>(), kScreenWidthPx) << name << " is wider";
    if (!keep.empty()) test_support::write_file(keep + "/" + GetParam() + "-" + name + ".png", png);
  }
}

// One test per database: ctest runs every test in a process of its own, so one test is what
// keeps the cost at one history, one server and one Chromium per database. Each part says its
// name in its failures and runs whatever the parts before it found.
TEST_P(ServeBrowser, EveryPageInTheBrowser) {
  const std::vector<std::pair<const char*, void (ServeBrowser::*)()>> parts = {
      {"the_runs_list_shows_every_kind_and_filters_by_kind_model_and_verdict",
       &ServeBrowser::the_runs_list_shows_every_kind_and_filters_by_kind_model_and_verdict},
      {"each_kinds_run_page_shows_its_verification_and_opens_its_report",
       &ServeBrowser::each_kinds_run_page_shows_its_verification_and_opens_its_report},
      {"a_drives_page_lists_its_runs_of_every_kind", &ServeBrowser::a_drives_page_lists_its_runs_of_every_kind},
      {"a_campaign_page_follows_the_step_while_open", &ServeBrowser::a_campaign_page_follows_the_step_while_open},
      {"compare_and_trend_have_every_row", &ServeBrowser::compare_and_trend_have_every_row},
      {"hostile_strings_are_inert", &ServeBrowser::hostile_strings_are_inert},
      {"a_token_guards_every_page", &ServeBrowser::a_token_guards_every_page},
      {"the_static_export_has_the_same_pages", &ServeBrowser::the_static_export_has_the_same_pages},
      {"pages_fit_the_screen", &ServeBrowser::pages_fit_the_screen}};
  for (const auto& [name, part] : parts) {
    SCOPED_TRACE(name);
    (this->*part)();
  }
}

INSTANTIATE_TEST_SUITE_P(Databases, ServeBrowser, ::testing::Values("sqlite", "postgresql"),
                         [](const ::testing::TestParamInfo<std::string>& database) { return database.param; });

TEST(ServeCommand, NonLoopbackListenWithoutATokenIsRefused) {
  test_support::ShmTempDir dir{"ptsuite-serve-cli"};
  const std::string db = dir.file("history.sqlite");
  { (void)history::HistoryStore::open(test_support::sqlite_history(db)); }
  const ProgramResult r =
      run_program({PTSUITE_BINARY, "serve", "--db", db, "--listen", "0.0.0.0:0"}, "", uint64_t{60} * 1'000'000'000);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--token-file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ptsuite::serve
