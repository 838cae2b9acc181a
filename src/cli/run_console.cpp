#include "cli/run_console.hpp"

#include "cli/console.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <cstdio>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::cli {

namespace {

// "iops/main/r003-s12" -> "iops/main/r003": the unit a non-terminal log reports once.
std::string group_of(const pts::StepId& id) {
  const size_t dash = id.name.find('-');
  const bool round = !id.name.empty() && id.name[0] == 'r' && dash != std::string::npos;
  return id.test + "/" + id.phase + (round ? "/" + id.name.substr(0, dash) : "");
}

}  // namespace

RunConsole::RunConsole(bool quiet) : m_quiet(quiet), m_tty(isatty(STDERR_FILENO) == 1), m_now_ns(monotonic_ns) {}

RunConsole::~RunConsole() { clear_line(); }

void RunConsole::clear_line() {
  if (m_drawn) {
    std::fputs("\r\033[K", stderr);
    m_drawn = false;
  }
}

void RunConsole::message(const std::string& text) {
  if (m_quiet) {
    return;
  }
  clear_line();
  fmt::print(stderr, "{}\n", text);
}

void RunConsole::warning(const std::string& text) {
  clear_line();
  fmt::print(stderr, "{}\n", text);
}

void RunConsole::result(const std::string& text) { warning(text); }

void RunConsole::plan_ready(const pts::Plan& best, const pts::Plan& worst) {
  m_eta = pts::EtaModel(best, worst, worst.assumptions);
  m_show_likely = worst.assumptions.show_likely;
  message(
      fmt::format("plan: {} steps at most; estimated {} if every test is steady at Round 5, {} at most ({}; "
                  "the ETA learns from the run; see `ptsuite plan`)",
                  worst.steps.size(), units::format_duration(best.total_ns), units::format_duration(worst.total_ns),
                  m_eta.basis()));
}

void RunConsole::test_started(const std::string& id, const std::string& title, size_t index, size_t count) {
  message(fmt::format("[{}/{}] {} ({})", index + 1, count, title, id));
}

std::string RunConsole::eta_text(const std::string& id, uint64_t elapsed_ns) const {
  const std::optional<pts::EtaRemaining> left = m_eta.remaining(id, elapsed_ns);
  if (!left) {
    return "";
  }
  const std::string likely = left->likely_ns && m_show_likely
                                 ? fmt::format(", likely {}", units::format_duration(*left->likely_ns))
                                 : std::string();
  if (!left->best_ns) {
    return fmt::format("ETA <= {}{}", units::format_duration(left->worst_ns), likely);
  }
  return fmt::format("ETA <= {} ({} if steady at Round 5){}", units::format_duration(left->worst_ns),
                     units::format_duration(*left->best_ns), likely);
}

void RunConsole::step_started(const pts::StepId& id, const std::string& label) {
  m_step = id.text();
  m_step_started_ns = m_now_ns();
  m_warned_at_ns = 0;
  m_label = label;
  const std::string group = group_of(id);
  if (!m_quiet && !m_tty && group != m_last_group) {
    message(fmt::format("  {}  {}  {}", group, label, eta_text(m_step, 0)));
  }
  m_last_group = group;
}

void RunConsole::step_progress(const pts::StepProgress& p) {
  if (stall_warning_due(p.stalled_ns, p.elapsed_ns, m_warned_at_ns)) {
    warning(fmt::format("{} ({} {})", stall_warning(p.stalled_ns), p.id.text(), m_label));
    m_warned_at_ns = p.elapsed_ns;
  }
  if (m_quiet || !m_tty) {
    return;
  }
  const std::string expected = p.expected_ns > 0 ? " / " + units::format_duration(p.expected_ns) : "";
  std::fputs(fmt::format("\r\033[K{}  {}  {}{}  {:.0f} IOPS  {:.1f} MB/s  {}", p.id.text(), m_label,
                         units::format_duration(p.elapsed_ns), expected, p.live_iops, p.live_mb_per_s,
                         eta_text(p.id.text(), p.elapsed_ns))
                 .c_str(),
             stderr);
  m_drawn = true;
}

void RunConsole::step_finished(const pts::StepId& id) { m_eta.finished(id.text(), m_now_ns() - m_step_started_ns); }

}  // namespace ptsuite::cli
