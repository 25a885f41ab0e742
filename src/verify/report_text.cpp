#include <fmt/format.h>

#include "verify/report_writers.hpp"

namespace ccforge::verify {
namespace {

std::string location(const std::string& file, ir::TextLocation where) {
  if (!where.known()) return file;
  return fmt::format("{}:{}:{}", file, where.line, where.column);
}

std::string stepLine(const StepRef& s) {
  std::string who = s.step >= 0 ? fmt::format("rank {} tb {} step {}", s.rank, s.tb, s.step)
                                : fmt::format("rank {} tb {}", s.rank, s.tb);
  if (s.tile >= 0) who += fmt::format(" (tile {})", s.tile);
  if (s.where.known()) who += fmt::format(" [line {}]", s.where.line);
  return s.role.empty() ? who : who + ": " + s.role;
}

void writeFile(std::ostream& out, const FileReport& r) {
  out << "== " << r.file << "\n";
  if (!r.error.empty()) {
    out << "error: " << r.error << "\n";
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
  for (const Violation& v : r.violations) {
    out << fmt::format("{}[{}] {}: {}\n", v.severity == Severity::Error ? "error" : "warning", v.rule,
                       location(v.file, v.where), v.message);
    for (const StepRef& s : v.steps) out << "    " << stepLine(s) << "\n";
    for (const std::string& e : v.evidence) out << "    note: " << e << "\n";
  }
  for (const std::string& n : r.notes) out << "note: " << n << "\n";
  size_t errors = r.errorCount(), warnings = r.warningCount();
  std::string verdict = r.verdict == Verdict::Verified       ? "VERIFIED"
                        : r.verdict == Verdict::Violation    ? "VIOLATION"
                        : r.verdict == Verdict::Inconclusive ? "INCONCLUSIVE"
                                                             : "ERROR";
  out << fmt::format("verdict: {} ({} error{}, {} warning{})\n\n", verdict, errors, errors == 1 ? "" : "s", warnings,
                     warnings == 1 ? "" : "s");
}

}  // namespace

void writeText(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run) {
  for (const FileReport& r : reports) writeFile(out, r);
  if (reports.size() > 1) {
    size_t verified = 0;
    for (const FileReport& r : reports) verified += r.verdict == Verdict::Verified;
    out << fmt::format("{} of {} files verified ({} profile); exit code {}\n", verified, reports.size(), run.profile,
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
