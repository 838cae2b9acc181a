#include "cli/run_console.hpp"

#include "cli/console.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <cstdio>

#include <ptsuite/util/units.hpp>

namespace ptsuite::cli {

namespace {

std::map<std::string, uint64_t> remaining_by_step(const pts::Plan& plan) {
  std::map<std::string, uint64_t> out;
  uint64_t left = plan.total_ns;
  for (const pts::PlanStep& s : plan.steps) {
    out.emplace(s.id, left);
    left -= s.duration_ns;
  }
  return out;
}

// "iops/main/r003-s12" -> "iops/main/r003": the unit a non-terminal log reports once.
std::string group_of(const pts::StepId& id) {
  const size_t dash = id.name.find('-');
  const bool round = !id.name.empty() && id.name[0] == 'r' && dash != std::string::npos;
  return id.test + "/" + id.phase + (round ? "/" + id.name.substr(0, dash) : "");
}

}  // namespace

RunConsole::RunConsole(bool quiet) : m_quiet(quiet), m_tty(isatty(STDERR_FILENO) == 1) {}

RunConsole::~RunConsole() { clear_line(); }

void RunConsole::clear_line() {
  if (m_drawn) {
    std::fputs("\r\033[K", stderr);
    m_drawn = false;
  }
}

void RunConsole::message(const std::string& text) {
  clear_line();
  fmt::print(stderr, "{}\n", text);
}

void RunConsole::plan_ready(const pts::Plan& best, const pts::Plan& worst) {
  m_worst_remaining_ns = remaining_by_step(worst);
  m_best_remaining_ns = remaining_by_step(best);
  if (!m_quiet) {
    message(
        fmt::format("plan: {} steps at most; estimated {} if every test is steady at Round 5, {} at most "
                    "(WIPC timed at 500 MB/s, purges at 2 min; see `ptsuite plan`)",
                    worst.steps.size(), units::format_duration(best.total_ns), units::format_duration(worst.total_ns)));
  }
}

void RunConsole::test_started(const std::string& id, const std::string& title, size_t index, size_t count) {
  if (!m_quiet) {
    message(fmt::format("[{}/{}] {} ({})", index + 1, count, title, id));
  }
}

std::string RunConsole::eta_text(const std::string& id, uint64_t elapsed_ns) const {
  const auto worst = m_worst_remaining_ns.find(id);
  if (worst == m_worst_remaining_ns.end()) {
    return "";
  }
  const uint64_t w = worst->second > elapsed_ns ? worst->second - elapsed_ns : 0;
  const auto best = m_best_remaining_ns.find(id);
  if (best == m_best_remaining_ns.end()) {
    return fmt::format("ETA <= {}", units::format_duration(w));
  }
  const uint64_t b = best->second > elapsed_ns ? best->second - elapsed_ns : 0;
  return fmt::format("ETA <= {} ({} if steady at Round 5)", units::format_duration(w), units::format_duration(b));
}

void RunConsole::step_started(const pts::StepId& id, const std::string& label) {
  m_step = id.text();
  m_warned_at_ns = 0;
  m_label = label;
  const std::string group = group_of(id);
  if (!m_quiet && !m_tty && group != m_last_group) {
    message(fmt::format("  {}  {}  {}", group, label, eta_text(m_step, 0)));
  }
  m_last_group = group;
}

void RunConsole::step_progress(const pts::StepProgress& p) {
  if (!m_quiet && stall_warning_due(p.stalled_ns, p.elapsed_ns, m_warned_at_ns)) {
    message(fmt::format("{} ({} {})", stall_warning(p.stalled_ns), p.id.text(), m_label));
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

void RunConsole::step_finished(const pts::StepId&) {}

}  // namespace ptsuite::cli
