// `ptsuite serve` in a real browser: headless Chromium (Debian `chromium`) loads the pages from
// the server (in this process, on 127.0.0.1 and a free port) and the test reads the DOM the
// browser built (--dump-dom, after the page's scripts ran in virtual time):
//   * navigation and filters: the Runs list, a filtered list, a run, a drive, the drives list;
//   * hostile model / serial / campaign strings are text in the DOM, never elements, and the
//     title a script would set is not set;
//   * a live campaign: the scheduler's step advances at each look while the page is open and
//     the page's cell follows, by the server's events, and by polling when the server sends none;
//   * compare and trend pages with every row present;
//   * a token: refused without it (401), the ?token= link sets the cookie and the page opens;
//     the command refuses a non-loopback --listen without a token (exit 2, nothing bound).
// Skipped with the reason when Chromium is not installed (CI installs it).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include <httplib.h>

#include <ptsuite/fleet/progress.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/serve/catalog.hpp>
#include <ptsuite/serve/server.hpp>
#include <ptsuite/util/subprocess.hpp>
#include "support/test_outputs.hpp"
#include "unit/serve/serve_fixture.hpp"

namespace ptsuite::serve {
namespace {

constexpr uint64_t k_browser_timeout_ns = uint64_t{90} * 1'000'000'000;

#define SKIP_WITHOUT_CHROMIUM_SERVE()                                                                \
  if (report::find_chromium().empty()) {                                                             \
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium): no browser to render in"; \
  }

// The DOM after `budget_ms` of virtual time (timers and fetches of the page run).
std::string dump_dom(const std::string& url, int budget_ms) {
  test_support::ShmTempDir profile{"ptsuite-serve-chromium"};
  const ProgramResult r = run_program(
      {report::find_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-proxy-server",
       "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
       "--user-data-dir=" + profile.path(), "--virtual-time-budget=" + std::to_string(budget_ms), "--dump-dom", url},
      "", k_browser_timeout_ns);
  EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 2000);
  return r.out;
}

size_t rows_in(const std::string& dom) {
  size_t n = 0;
  for (size_t at = dom.find("<tr><td"); at != std::string::npos; at = dom.find("<tr><td", at + 1)) ++n;
  for (size_t at = dom.find("<tr data-key"); at != std::string::npos; at = dom.find("<tr data-key", at + 1)) ++n;
  return n;
}

class ServeBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_CHROMIUM_SERVE();
    const std::string db = m_dir.file("history.sqlite");
    {
      history::HistoryStore writable = history::HistoryStore::open(test_support::sqlite_history(db));
      m_ids = testing::fill_test_lab(writable, m_dir);
    }
    m_store =
        std::make_unique<history::HistoryStore>(history::HistoryStore::open_readonly(test_support::sqlite_history(db)));
    SiteOptions options;
    // The scheduler: drive S0000LAB0000 of campaign c000 runs, one step further at every look.
    options.jobs = [this] {
      fleet::SlurmJob job;
      job.id = 4242;
      job.name = "ptsuite-S0000LAB0000";
      job.state = "RUNNING";
      job.node = "host-00";
      const size_t step = std::min<size_t>(++m_polls, 9);
      job.comment = fleet::progress_comment({"c000", "running", step, 10, "iops", "2026-12-02T10:00:00Z", ""});
      return std::vector<fleet::SlurmJob>{job};
    };
    m_site = std::make_unique<Site>(*m_store, options);
  }
  void TearDown() override {
    if (m_server) m_server->stop();
    if (m_thread.joinable()) m_thread.join();
  }
  // Event streams end after their first event here (event_stream_ms 0): the browser's virtual
  // time stands still while a request is open, so a stream that stayed open would hold it.
  std::string start(const std::string& token = "", size_t event_streams = 2) {
    ServerOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.token = token;
    o.event_streams = event_streams;
    o.event_stream_ms = 0;
    m_server = std::make_unique<Server>(*m_site, o);
    m_thread = std::thread([this] { m_server->run(); });
    return "http://127.0.0.1:" + std::to_string(m_server->port());
  }

  test_support::ShmTempDir m_dir{"ptsuite-serve-browser"};
  testing::LabIds m_ids;
  std::atomic<size_t> m_polls{0};
  std::unique_ptr<history::HistoryStore> m_store;
  std::unique_ptr<Site> m_site;
  std::unique_ptr<Server> m_server;
  std::thread m_thread;
};

TEST_F(ServeBrowser, NavigationFiltersAndHostileStringsInert) {
  const std::string base = start();
  const std::string runs = dump_dom(base + "/runs", 1000);
  EXPECT_NE(runs.find("<h1>Runs</h1>"), std::string::npos) << runs.substr(0, 500);
  EXPECT_EQ(rows_in(runs), k_default_page_rows);
  EXPECT_NE(runs.find("rows 1-50 of 134"), std::string::npos);
  const std::string filtered = dump_dom(base + "/runs?campaign=c001&per=100", 1000);
  EXPECT_EQ(rows_in(filtered), 40u);
  const std::string next = dump_dom(base + "/runs?page=3", 1000);
  EXPECT_EQ(rows_in(next), 34u);
  const std::string drives = dump_dom(base + "/drives?host=host-01", 1000);
  EXPECT_EQ(rows_in(drives), 8u);
  const std::string run = dump_dom(base + "/run?id=" + std::to_string(m_ids.hostile), 1000);
  // Chromium serializes text with < > & escaped: the hostile model is text of a cell, and the
  // <img> it carries never became an element.
  EXPECT_NE(run.find("&lt;script&gt;document.title='owned'&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(run.find("<img"), std::string::npos);
  EXPECT_EQ(run.find("<title>owned"), std::string::npos);
  EXPECT_NE(run.find("<title>Run "), std::string::npos);
  const std::string hostile_drives = dump_dom(base + "/drives", 1000);
  EXPECT_EQ(hostile_drives.find("<img"), std::string::npos);
  EXPECT_EQ(hostile_drives.find("<b>bold"), std::string::npos);
  const std::string report = dump_dom(base + "/run/report?id=" + std::to_string(m_ids.on_disk), 1000);
  EXPECT_NE(report.find("<svg"), std::string::npos) << "the run's SNIA report";
}

// The campaign page open for 9 s: drive S0000LAB0000's step cell as the page shows it then,
// and how the page got its updates (body data-live-transport).
std::pair<std::string, std::string> live_step_and_transport(const std::string& base) {
  const std::string dom = dump_dom(base + "/campaign?name=c000", 9000);
  const size_t row = dom.find("data-key=\"S0000LAB0000\"");
  EXPECT_NE(row, std::string::npos) << dom.substr(0, 1000);
  if (row == std::string::npos) return {};
  const size_t step = dom.find("data-live=\"step\"", row);
  EXPECT_NE(step, std::string::npos);
  if (step == std::string::npos) return {};
  const std::string cell = dom.substr(step, dom.find("</td>", step) - step);
  const size_t t = dom.find("data-live-transport=\"");
  const std::string transport = t == std::string::npos ? "" : dom.substr(t + 21, dom.find('"', t + 21) - t - 21);
  return {cell, transport};
}

TEST_F(ServeBrowser, LiveCampaignFollowsServerSentEventsWhileOpen) {
  const auto [cell, transport] = live_step_and_transport(start());
  EXPECT_EQ(cell.find(">1/10"), std::string::npos) << "the page as first served said 1/10: " << cell;
  EXPECT_NE(cell.find("/10"), std::string::npos) << cell;
  EXPECT_EQ(transport, "events") << "the page followed the server's events";
  EXPECT_GE(m_polls.load(), 3u) << "the page and at least two events looked at the scheduler";
}

TEST_F(ServeBrowser, LiveCampaignPollsWhenTheServerSendsNoEvents) {
  const auto [cell, transport] = live_step_and_transport(start("", 0));
  EXPECT_EQ(cell.find(">1/10"), std::string::npos) << "the page as first served said 1/10: " << cell;
  EXPECT_NE(cell.find("/10"), std::string::npos) << cell;
  EXPECT_EQ(transport, "polling") << "the refused stream (503) fell back to polling";
  EXPECT_GE(m_polls.load(), 3u) << "the page polled the status while open";
}

TEST_F(ServeBrowser, CompareAndTrendHaveEveryRow) {
  const std::string base = start();
  const std::string trend = dump_dom(base + "/trend?model=LAB%20MODEL%200", 1000);
  const nlohmann::json rows =
      nlohmann::json::parse(m_site->handle({"trend", {{"model", "LAB MODEL 0"}, {"format", "json"}}}).body);
  EXPECT_EQ(rows_in(trend), rows.size());
  EXPECT_NE(trend.find("<svg"), std::string::npos);
  const std::string compare = dump_dom(
      base + "/compare?force=1&runs=" + std::to_string(m_ids.on_disk) + "," + std::to_string(m_ids.bundled), 1000);
  EXPECT_NE(compare.find("#" + std::to_string(m_ids.on_disk)), std::string::npos) << compare.substr(0, 500);
  EXPECT_NE(compare.find("#" + std::to_string(m_ids.bundled)), std::string::npos);
  EXPECT_NE(compare.find("<table"), std::string::npos);
}

TEST_F(ServeBrowser, ATokenGuardsEveryPage) {
  const std::string token(32, 't');
  (void)start(token);
  {
    httplib::Client client("127.0.0.1", m_server->port());
    const auto refused = client.Get("/runs");
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 401);
    EXPECT_NE(refused->get_header_value("Content-Security-Policy").find("default-src 'none'"), std::string::npos);
    EXPECT_EQ(client.Get("/runs", {{"Authorization", "Bearer " + token}})->status, 200);
    EXPECT_EQ(client.Get("/runs", {{"Authorization", "Bearer " + std::string(32, 'x')}})->status, 401);
    const auto link = client.Get(("/runs?model=M&token=" + token).c_str());
    ASSERT_TRUE(link);
    EXPECT_EQ(link->status, 303);
    EXPECT_EQ(link->get_header_value("Location"), "/runs?model=M") << "the token leaves the address";
    EXPECT_NE(link->get_header_value("Set-Cookie").find("HttpOnly; SameSite=Strict"), std::string::npos);
    EXPECT_EQ(client.Get("/runs", {{"Cookie", std::string(k_token_cookie) + "=" + token}})->status, 200);
    const auto post = client.Post("/runs", "x", "text/plain");
    ASSERT_TRUE(post);
    EXPECT_EQ(post->status, 405) << "read-only";
  }
  const std::string without = dump_dom("http://127.0.0.1:" + std::to_string(m_server->port()) + "/runs", 1000);
  EXPECT_EQ(without.find("<h1>Runs</h1>"), std::string::npos) << "the browser without the token sees no page";
}

TEST(ServeCommand, NonLoopbackListenWithoutATokenIsRefused) {
  test_support::ShmTempDir dir{"ptsuite-serve-cli"};
  const std::string db = dir.file("history.sqlite");
  { (void)history::HistoryStore::open(test_support::sqlite_history(db)); }
  const ProgramResult r =
      run_program({PTSUITE_BINARY, "serve", "--db", db, "--listen", "0.0.0.0:0"}, "", uint64_t{60} * 1'000'000'000);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--token-file"), std::string::npos) << r.err;
  const ProgramResult out = run_program({PTSUITE_BINARY, "serve", "--db", db, "--export", dir.file("site")}, "",
                                        uint64_t{60} * 1'000'000'000);
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_TRUE(std::filesystem::is_regular_file(dir.file("site/index.html")));
}

}  // namespace
}  // namespace ptsuite::serve
