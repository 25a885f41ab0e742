#include "verify/report.hpp"

#include <algorithm>

#include "base/diagnostic.hpp"

namespace ccforge::verify {

std::string_view checkName(Check c) {
  switch (c) {
    case Check::Format: return "format";
    case Check::Limits: return "limits";
    case Check::Buffers: return "buffers";
    case Check::Connections: return "connections";
    case Check::Races: return "races";
    case Check::Postcondition: return "postcondition";
    case Check::Deadlock: return "deadlock";
    case Check::Selection: return "selection";
  }
  return "?";
}

std::string_view checkStatusName(CheckStatus s) {
  switch (s) {
    case CheckStatus::Passed: return "passed";
    case CheckStatus::Failed: return "failed";
    case CheckStatus::Skipped: return "skipped";
    case CheckStatus::Inconclusive: return "inconclusive";
  }
  return "?";
}

std::string_view verdictName(Verdict v) {
  switch (v) {
    case Verdict::Verified: return "verified";
    case Verdict::Accepted: return "accepted";
    case Verdict::Violation: return "violation";
    case Verdict::Inconclusive: return "inconclusive";
    case Verdict::Malformed: return "malformed";
    case Verdict::InternalError: return "internal-error";
  }
  return "?";
}

std::string_view suppressionKindName(SuppressionKind k) {
  return k == SuppressionKind::InSource ? "inSource" : "external";
}

namespace {

size_t countOf(const std::vector<Violation>& violations, bool suppressed, Severity severity) {
  return static_cast<size_t>(std::count_if(violations.begin(), violations.end(), [&](const Violation& v) {
    return v.suppression.has_value() == suppressed && (suppressed || v.severity == severity);
  }));
}

}  // namespace

size_t FileReport::errorCount() const { return countOf(violations, false, Severity::Error); }
size_t FileReport::warningCount() const { return countOf(violations, false, Severity::Warning); }
size_t FileReport::suppressedCount() const { return countOf(violations, true, Severity::Error); }

void setError(FileReport& r, const std::string& file, base::TextLocation where, std::string message) {
  r.error = base::formatDiagnostic(file, where, base::DiagnosticLevel::Error, message,
                                   r.verdict == Verdict::Malformed ? "input.malformed" : "internal.error");
  r.errorFile = file;
  r.errorWhere = where;
  r.errorMessage = std::move(message);
}

Verdict combinedVerdict(const std::vector<FileReport>& reports) {
  auto rank = [](Verdict v) {
    switch (v) {
      case Verdict::InternalError: return 5;
      case Verdict::Malformed: return 4;
      case Verdict::Violation: return 3;
      case Verdict::Inconclusive: return 2;
      case Verdict::Accepted: return 1;
      case Verdict::Verified: return 0;
    }
    return 5;
  };
  Verdict worst = Verdict::Verified;
  for (const FileReport& r : reports)
    if (rank(r.verdict) > rank(worst)) worst = r.verdict;
  return worst;
}

std::string commonProfile(const std::vector<FileReport>& reports) {
  std::string common;
  for (const FileReport& r : reports) {
    if (r.profile.empty() || r.profile == common) continue;
    if (!common.empty()) return "mixed";
    common = r.profile;
  }
  return common;
}

}  // namespace ccforge::verify
