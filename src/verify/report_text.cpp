#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "base/diagnostic.hpp"
#include "verify/report_writers.hpp"
#include "verify/selection.hpp"

namespace ccforge::verify {
namespace {

std::string stepName(const StepRef& s) {
  std::string who = s.step >= 0 ? fmt::format("rank {} tb {} step {}", s.rank, s.tb, s.step)
                                : fmt::format("rank {} tb {}", s.rank, s.tb);
  if (s.tile >= 0) who += fmt::format(" (tile {})", s.tile);
  return s.role.empty() ? who : who + ": " + s.role;
}

std::string stepLine(const StepRef& s) {
  std::string who = stepName(s);
  if (s.where.known()) who += fmt::format(" [line {}]", s.where.line);
  return who;
}

// A finding, then one note per step involved (at the step's element, or at the finding's place
// when the step has none) and one per piece of evidence, each with the finding's rule: the
// compilers' format, so that an editor steps through them and a filter by rule keeps them.
void writeViolation(std::ostream& out, const Violation& v) {
  out << base::formatDiagnostic(
             v.file, v.where,
             v.severity == Severity::Error ? base::DiagnosticLevel::Error : base::DiagnosticLevel::Warning, v.message,
             v.rule)
      << "\n";
  for (const StepRef& s : v.steps)
    out << base::formatDiagnostic(v.file, s.where.known() ? s.where : v.where, base::DiagnosticLevel::Note, stepName(s),
                                  v.rule)
        << "\n";
  for (const std::string& e : v.evidence)
    out << base::formatDiagnostic(v.file, v.where, base::DiagnosticLevel::Note, e, v.rule) << "\n";
}

std::string answers(const SmtQueryRecord& q) {
  std::string out = q.answer;
  if (q.decidedBy == "simplification") return out + " (by simplification: an assertion is false)";
  if (q.solvers.size() < 2 && (q.solvers.empty() || q.solvers[0].reason.empty())) return out;
  std::string each;
  for (const SolverAnswer& a : q.solvers) {
    if (!each.empty()) each += ", ";
    each += a.solver + " " + a.answer;
    if (!a.reason.empty()) each += ": " + a.reason;
  }
  return out + " (" + each + ")";
}

constexpr size_t kScheduleLinesShown = 60;

// Consecutive FIFO units of one step are shown on one line.
std::vector<std::string> scheduleLines(const Witness& w) {
  std::vector<std::string> lines;
  for (size_t i = 0; i < w.schedule.size();) {
    const ScheduleEvent& e = w.schedule[i];
    std::string who = fmt::format("rank {} tb {} step {} tile {}", e.rank, e.tb, e.step, e.tile);
    if (!e.action.empty()) {
      lines.push_back(who + ": " + e.action + (e.chunk >= 0 ? fmt::format(" chunk {}", e.chunk) : ""));
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < w.schedule.size() && w.schedule[j].rank == e.rank && w.schedule[j].tb == e.tb &&
           w.schedule[j].step == e.step && w.schedule[j].tile == e.tile &&
           w.schedule[j].unit == w.schedule[j - 1].unit + 1)
      ++j;
    lines.push_back(j - i == 1 ? fmt::format("{} unit {}", who, e.unit)
                               : fmt::format("{} units {}-{}", who, e.unit, w.schedule[j - 1].unit));
    i = j;
  }
  return lines;
}

void writeSmt(std::ostream& out, const SmtSummary& smt) {
  std::string solvers;
  for (const std::string& s : smt.solvers) {
    if (!solvers.empty()) solvers += " and ";
    solvers += s;
  }
  out << fmt::format("  smt: engine {}, {} {}\n", smt.engine, smt.solvers.size() == 1 ? "solver" : "solvers", solvers);
  for (const SmtQueryRecord& q : smt.queries) out << fmt::format("    [{}] {}: {}\n", q.check, q.query, answers(q));
  if (!smt.minimumSlotsProof.empty()) out << "  smt slots: " << smt.minimumSlotsProof << "\n";
  if (smt.maxTilesChecked > 0 || !smt.parametric.empty())
    out << fmt::format("  smt tiles: checked up to {} tile iteration{}; {}\n", smt.maxTilesChecked,
                       smt.maxTilesChecked == 1 ? "" : "s", smt.parametric);
  for (size_t n = 0; n < smt.witnesses.size(); ++n) {
    const Witness& w = smt.witnesses[n];
    out << fmt::format("  witness {}: {} ({}), {} events; {}\n", n + 1, w.kind, w.query, w.schedule.size(), w.replay);
    std::vector<std::string> lines = scheduleLines(w);
    for (size_t i = 0; i < lines.size() && i < kScheduleLinesShown; ++i)
      out << fmt::format("    {}. {}\n", i + 1, lines[i]);
    if (lines.size() > kScheduleLinesShown)
      out << fmt::format("    ... {} more (every event is in the JSON report and in --witness-dir)\n",
                         lines.size() - kScheduleLinesShown);
    for (const StepRef& b : w.blocked) out << "    blocked: " << stepLine(b) << "\n";
    for (const std::string& o : w.outcome) out << "    outcome: " << o << "\n";
  }
}

// The findings, each rule's past kFindingsShownPerRule counted in a note at the first of them.
void writeViolations(std::ostream& out, const FileReport& r) {
  std::vector<std::pair<std::string, size_t>> seen;  // rule -> findings, in order of first appearance
  std::vector<const Violation*> firstHidden;
  for (const Violation& v : r.violations) {
    if (v.suppression) continue;  // counted in the verdict line; --format json or sarif lists them
    auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == v.rule; });
    if (it == seen.end()) it = seen.insert(seen.end(), {v.rule, 0});
    if (++it->second <= kFindingsShownPerRule)
      writeViolation(out, v);
    else if (it->second == kFindingsShownPerRule + 1)
      firstHidden.push_back(&v);
  }
  for (const Violation* v : firstHidden) {
    const size_t all =
        std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == v->rule; })->second;
    out << base::formatDiagnostic(
               v->file, v->where, base::DiagnosticLevel::Note,
               fmt::format("{} more findings of this rule, the first here (of {} in all; --format json "
                           "or sarif lists every one)",
                           all - kFindingsShownPerRule, all),
               v->rule)
        << "\n";
  }
}

std::string verdictLine(const FileReport& r) {
  const size_t errors = r.errorCount(), warnings = r.warningCount();
  const std::string verdict = r.verdict == Verdict::Verified        ? "VERIFIED"
                              : r.verdict == Verdict::Accepted      ? "ACCEPTED"
                              : r.verdict == Verdict::Violation     ? "VIOLATION"
                              : r.verdict == Verdict::Inconclusive  ? "INCONCLUSIVE"
                              : r.verdict == Verdict::InternalError ? "INTERNAL ERROR"
                                                                    : "ERROR";
  const size_t suppressed = r.suppressedCount();
  return fmt::format("verdict: {} ({} error{}, {} warning{}{})", verdict, errors, errors == 1 ? "" : "s", warnings,
                     warnings == 1 ? "" : "s", suppressed ? fmt::format(", {} suppressed", suppressed) : "");
}

// --quiet: what a CI log needs, nothing for a verified file without warnings.
void writeFileQuietly(std::ostream& out, const FileReport& r) {
  if (!r.error.empty() && !r.program) {
    out << r.error << "\n"
        << r.file << ": verdict: " << (r.verdict == Verdict::Malformed ? "UNREADABLE" : "INTERNAL ERROR") << "\n";
    return;
  }
  writeViolations(out, r);
  if (!r.error.empty()) out << r.error << "\n";
  if (r.verdict != Verdict::Verified) out << r.file << ": " << verdictLine(r) << "\n";
}

// A note every file of a run has (the profile each header selects) is printed for the first file
// only; `repeated` counts the files after it.
using RepeatedNotes = std::vector<std::pair<std::string, size_t>>;

void writeFile(std::ostream& out, const FileReport& r, RepeatedNotes& repeated) {
  out << "== " << r.file << "\n";
  if (!r.error.empty() && !r.program) {
    out << r.error << "\n";
    out << "verdict: " << (r.verdict == Verdict::Malformed ? "UNREADABLE" : "INTERNAL ERROR") << "\n\n";
    return;
  }
  if (r.program) {
    const ProgramSummary& p = *r.program;
    std::string forms;
    for (const std::string& f : p.callForms) {
      if (!forms.empty()) forms += ", ";
      forms += f;
    }
    out << fmt::format("program: {} | {} | {} | {} ranks, {} channels, {} thread blocks, {} steps | {}\n",
                       p.name.empty() ? "(unnamed)" : p.name, p.collective, p.protocol, p.ranks, p.channels,
                       p.threadBlocks, p.steps, forms.empty() ? "no call form" : forms);
  }
  for (const CheckOutcome& c : r.checks)
    out << fmt::format("  {:<14} {:<12} {}\n", checkName(c.check), checkStatusName(c.status), c.note);
  if (r.deadlock) {
    const DeadlockSummary& d = *r.deadlock;
    out << "  slots: checked with " << d.slotsChecked << " transfers in flight per connection; ";
    if (d.minimumSlots)
      out << "the smallest deadlock-free count is " << *d.minimumSlots << "\n";
    else
      out << "no count up to 64 is deadlock-free (a dependency cycle, not a buffering problem)\n";
  }
  if (r.boxes && r.boxes->acrossBoxes > 0)
    out << fmt::format("  boxes: {}; {} of {} connections cross boxes{}: slot back-pressure orders no data there\n",
                       r.boxes->layout, r.boxes->acrossBoxes, r.boxes->connections,
                       !r.boxes->layoutKnown ? " or may (give --gpus-per-box or --topology)" : "");
  if (r.smt) writeSmt(out, *r.smt);
  for (const SelectorUse& u : r.selection) {
    std::string accepts = describeCalls(u.accepts), selected = describeCalls(u.selected);
    out << fmt::format("  selection {} ({}): ", u.selector, u.order)
        << (accepts == selected ? "accepts and runs " + accepts : "accepts " + accepts + "; runs " + selected) << "\n";
  }
  writeViolations(out, r);
  for (const std::string& n : r.notes) {
    auto it = std::find_if(repeated.begin(), repeated.end(), [&](const auto& seen) { return seen.first == n; });
    if (it != repeated.end()) {
      ++it->second;
      continue;
    }
    repeated.emplace_back(n, 0);
    out << base::formatDiagnostic(r.file, {}, base::DiagnosticLevel::Note, n) << "\n";
  }
  if (!r.error.empty()) out << r.error << "\n";
  out << verdictLine(r) << "\n\n";
}

}  // namespace

void writeText(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run) {
  RepeatedNotes repeated;
  for (const FileReport& r : reports) run.quiet ? writeFileQuietly(out, r) : writeFile(out, r, repeated);
  for (const auto& [note, more] : repeated)
    if (more > 0) out << fmt::format("the note \"{}\" holds for {} more file{}\n", note, more, more == 1 ? "" : "s");
  if (reports.size() > 1) {
    size_t verified = 0, accepted = 0;
    for (const FileReport& r : reports) {
      verified += r.verdict == Verdict::Verified;
      accepted += r.verdict == Verdict::Accepted;
    }
    out << fmt::format("{} of {} files verified{} ({} profile); exit code {}\n", verified, reports.size(),
                       accepted ? fmt::format(", {} accepted with suppressed findings", accepted) : "", run.profile,
                       run.exitCode);
  }
}

std::optional<ReportFormat> parseReportFormat(std::string_view name) {
  if (name == "text") return ReportFormat::Text;
  if (name == "json") return ReportFormat::Json;
  if (name == "sarif") return ReportFormat::Sarif;
  return std::nullopt;
}

}  // namespace ccforge::verify
