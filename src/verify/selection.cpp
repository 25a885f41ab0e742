#include "verify/selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace ccforge::verify {
namespace {

constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();
constexpr int64_t kLegacyMaxBytes = int64_t{128} << 20;

struct Window {
  int64_t lo, hi;
};

Window windowOf(const ir::Algorithm& a) {
  if (!a.minBytes && !a.maxBytes) return {0, kLegacyMaxBytes};  // legacy defaults
  int64_t hi = a.maxBytes.value_or(0);
  return {a.minBytes.value_or(0), hi == 0 ? kUnbounded : hi};
}

std::string bytes(int64_t b) { return b == kUnbounded ? "unbounded" : std::to_string(b); }

void markViolation(FileReport& r) {
  if (r.verdict == Verdict::Verified || r.verdict == Verdict::Inconclusive) r.verdict = Verdict::Violation;
  for (CheckOutcome& c : r.checks)
    if (c.check == Check::Selection) c.status = CheckStatus::Failed;
}

}  // namespace

void checkSelection(const std::vector<LoadedAlgorithm>& files, const RuntimeProfile& profile) {
  for (const LoadedAlgorithm& f : files)
    if (f.algorithm) f.report->checks.push_back({Check::Selection, CheckStatus::Passed, "checked against the directory"});
  if (static_cast<int64_t>(files.size()) > profile.maxAlgorithmFiles && !files.empty()) {
    FileReport& last = *files.back().report;
    last.violations.push_back(Violation{
        Check::Selection, Severity::Error, "selection.too-many-files",
        fmt::format("the directory holds {} algorithm files; {} loads at most {}", files.size(), profile.name,
                    profile.maxAlgorithmFiles),
        last.file, {}, {}, {}});
    markViolation(last);
  }
  for (size_t j = 0; j < files.size(); ++j) {
    const ir::Algorithm* later = files[j].algorithm;
    if (!later) continue;
    for (size_t i = 0; i < j; ++i) {
      const ir::Algorithm* earlier = files[i].algorithm;
      if (!earlier || earlier->coll != later->coll || earlier->ngpus != later->ngpus) continue;
      bool inPlace = earlier->servesInPlace() && later->servesInPlace();
      bool outOfPlace = earlier->servesOutOfPlace() && later->servesOutOfPlace();
      if (!inPlace && !outOfPlace) continue;
      Window a = windowOf(*earlier), b = windowOf(*later);
      int64_t lo = std::max(a.lo, b.lo), hi = std::min(a.hi, b.hi);
      if (lo > hi) continue;
      bool whole = a.lo <= b.lo && b.hi <= a.hi;
      FileReport& report = *files[j].report;
      report.violations.push_back(Violation{
          Check::Selection, Severity::Error, whole ? "selection.shadowed" : "selection.ambiguous",
          fmt::format("{} on {} ranks ({}): sizes {}..{} bytes select {} first (the runtime loads files in path "
                      "order), so {}",
                      earlier->collName, later->ngpus,
                      inPlace && outOfPlace ? "in-place and out-of-place" : (inPlace ? "in-place" : "out-of-place"),
                      lo, bytes(hi), files[i].report->file,
                      whole ? "this file is never selected" : "this file is not used for those sizes"),
          report.file, later->where, {}, {}});
      markViolation(report);
    }
  }
}

}  // namespace ccforge::verify
