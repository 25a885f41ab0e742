#include "verify/selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "base/byte_size.hpp"
#include "semantics/runtime_profile.hpp"
#include "semantics/selection.hpp"
#include "verify/findings.hpp"

namespace ccforge::verify {
namespace {

// Which of a group's calls a file accepts or runs.
class CallSet {
 public:
  explicit CallSet(size_t calls = 0) : bits_(calls, false) {}
  void set(size_t i) { bits_[i] = true; }
  bool operator[](size_t i) const { return bits_[i]; }
  bool any() const { return std::find(bits_.begin(), bits_.end(), true) != bits_.end(); }
  bool none() const { return !any(); }
  CallSet operator&(const CallSet& other) const {
    CallSet both(bits_.size());
    for (size_t i = 0; i < bits_.size(); ++i) both.bits_[i] = bits_[i] && other.bits_[i];
    return both;
  }

 private:
  std::vector<bool> bits_;
};

std::string joined(const std::vector<std::string>& parts, std::string_view separator, std::string_view last) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) s += i + 1 == parts.size() ? last : separator;
    s += parts[i];
  }
  return s;
}

std::string selectorsPhrase(const std::vector<semantics::Selector>& selectors) {
  std::vector<std::string> names;
  for (semantics::Selector s : selectors) names.emplace_back(selectorPhrase(s));
  return "the " + joined(names, ", the ", " and the ");
}

// Every considered call of one selector for one collective and rank count, and which of them
// each file of that group accepts and runs.
struct GroupAnalysis {
  semantics::Selector selector;
  std::vector<semantics::SelectionCall> calls;
  std::vector<size_t> members;                // indices into the directory's files, in path order
  std::vector<CallSet> accepted;              // per member
  std::vector<CallSet> selected;              // per member
  std::vector<std::optional<size_t>> winner;  // per call, fixed order: the member that runs it
};

bool boundedAbove(semantics::Selector s, const ir::Algorithm& a) {
  return s == semantics::Selector::Legacy || semantics::sizeWindowOf(a).maxBytes.has_value();
}

// The calls a group is checked for: the power-of-two counts of consideredCalls and, for every
// member, call form and element size, the smallest count it accepts and, under a window with an
// upper end, the largest (solved by acceptedCounts): a file whose counts are no power of two still
// shows its calls, and two windows that share a boundary show the call both accept there.
std::vector<semantics::SelectionCall> groupCalls(semantics::Selector s, ir::CollectiveKind coll, int32_t ranks,
                                                 const std::vector<size_t>& members,
                                                 const std::vector<LoadedAlgorithm>& files) {
  std::vector<semantics::SelectionCall> calls = consideredCalls(s, coll, ranks);
  if (calls.empty()) return calls;
  for (size_t m : members)
    for (semantics::CallForm form : formsPassed(s, coll))
      for (int32_t typeSize : semantics::kTypeSizes) {
        const semantics::SelectionCall shape{coll, ranks, form, typeSize, 0};
        const auto counts =
            acceptedCounts(s, *files[m].algorithm, shape, semantics::maxConsideredCount(coll, ranks, typeSize));
        if (!counts) continue;
        calls.push_back({coll, ranks, form, typeSize, counts->first});
        // The largest count matters at a window's upper end, not at the cap of an unbounded one.
        if (boundedAbove(s, *files[m].algorithm)) calls.push_back({coll, ranks, form, typeSize, counts->last});
      }
  auto key = [](const semantics::SelectionCall& c) { return std::make_tuple(c.form, c.typeSize, c.count); };
  std::sort(calls.begin(), calls.end(),
            [&](const semantics::SelectionCall& a, const semantics::SelectionCall& b) { return key(a) < key(b); });
  calls.erase(std::unique(calls.begin(), calls.end(),
                          [&](const semantics::SelectionCall& a, const semantics::SelectionCall& b) {
                            return key(a) == key(b);
                          }),
              calls.end());
  return calls;
}

GroupAnalysis analyse(semantics::Selector s, ir::CollectiveKind coll, int32_t ranks, std::vector<size_t> members,
                      const std::vector<LoadedAlgorithm>& files) {
  GroupAnalysis g{s, groupCalls(s, coll, ranks, members, files), std::move(members), {}, {}, {}};
  g.accepted.assign(g.members.size(), CallSet(g.calls.size()));
  g.selected.assign(g.members.size(), CallSet(g.calls.size()));
  g.winner.resize(g.calls.size());
  for (size_t c = 0; c < g.calls.size(); ++c) {
    std::vector<size_t> takers;
    for (size_t m = 0; m < g.members.size(); ++m)
      if (accepts(s, *files[g.members[m]].algorithm, g.calls[c])) {
        g.accepted[m].set(c);
        takers.push_back(m);
      }
    if (takers.empty()) continue;
    if (hasFixedOrder(s)) {
      g.winner[c] = takers.front();
      g.selected[takers.front()].set(c);
    } else if (takers.size() == 1) {
      g.selected[takers.front()].set(c);
    }
  }
  return g;
}

std::vector<CallRange> rangesOf(const CallSet& set, const std::vector<semantics::SelectionCall>& calls) {
  std::vector<CallRange> ranges;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (!set[i]) continue;
    const semantics::SelectionCall& c = calls[i];
    // Calls are ordered by form, element size and count.
    if (i > 0 && set[i - 1] && calls[i - 1].form == c.form && calls[i - 1].typeSize == c.typeSize) {
      ranges.back().countMax = c.count;
      ranges.back().bytesMax = callBytes(c);
    } else {
      ranges.push_back({std::string(callFormName(c.form)), c.typeSize, c.count, c.count, callBytes(c), callBytes(c)});
    }
  }
  return ranges;
}

bool sameRanges(const std::vector<CallRange>& a, const std::vector<CallRange>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const CallRange& x, const CallRange& y) {
    return x.callForm == y.callForm && x.typeSize == y.typeSize && x.countMin == y.countMin && x.countMax == y.countMax;
  });
}

// One concrete call of the set: the 4-byte one nearest to 1 MiB where there is one.
std::string exampleCall(const CallSet& set, const std::vector<semantics::SelectionCall>& calls) {
  constexpr uint64_t kTypical = uint64_t{1} << 20;
  auto distance = [&](size_t i) {
    const uint64_t b = callBytes(calls[i]);
    return std::make_pair(calls[i].typeSize == 4 ? 0 : 1, b > kTypical ? b - kTypical : kTypical - b);
  };
  std::optional<size_t> pick;
  for (size_t i = 0; i < calls.size(); ++i)
    if (set[i] && (!pick || distance(i) < distance(*pick))) pick = i;
  if (!pick) return "";
  const semantics::SelectionCall& c = calls[*pick];
  return fmt::format("e.g. an {} call of count {} with a {}-byte type ({} bytes)", callFormName(c.form), c.count,
                     c.typeSize, callBytes(c));
}

std::string callsWithExample(const CallSet& set, const std::vector<semantics::SelectionCall>& calls) {
  return describeCalls(rangesOf(set, calls)) + ", " + exampleCall(set, calls);
}

std::string subject(const ir::Algorithm& a) { return fmt::format("{} on {} ranks", a.collName, a.ngpus); }

// Why a file accepts none of the considered calls.
std::string deadReason(const GroupAnalysis& g, const ir::Algorithm& a) {
  if (g.calls.empty()) {
    if (g.selector == semantics::Selector::Legacy && a.ngpus <= 1)
      return "the legacy runtime runs no MSCCL algorithm on one rank";
    return fmt::format("no NCCL call reaches the {} as coll=\"{}\"", selectorPhrase(g.selector), a.collName);
  }
  semantics::Rejection furthest = semantics::Rejection::NotLoaded;
  for (const semantics::SelectionCall& c : g.calls) furthest = std::max(furthest, rejection(g.selector, a, c));
  // Past the shape tests, some count passes the divisibility test unless its step exceeds every count.
  for (semantics::CallForm form : formsPassed(g.selector, a.coll))
    for (int32_t typeSize : selectorTypeSizes(g.selector)) {
      const semantics::SelectionCall shape{a.coll, a.ngpus, form, typeSize, 0};
      if (shapeRejection(g.selector, a, shape) != semantics::Rejection::None) continue;
      const auto step = countStep(g.selector, a, shape);
      furthest = std::max(furthest, step && *step <= semantics::maxConsideredCount(a.coll, a.ngpus, typeSize)
                                        ? semantics::Rejection::Window
                                        : semantics::Rejection::Divisibility);
    }
  const std::string term = divisibilityTerm(g.selector, a.coll, a.ngpus);
  switch (furthest) {
    case semantics::Rejection::NotLoaded: return notLoadedReason(g.selector, a);
    case semantics::Rejection::CallForm: {
      std::vector<std::string> forms;
      for (const semantics::SelectionCall& c : g.calls)
        if (std::find(forms.begin(), forms.end(), callFormName(c.form)) == forms.end())
          forms.emplace_back(callFormName(c.form));
      return fmt::format("it serves none of the call forms the {} passes for {} ({})", selectorPhrase(g.selector),
                         a.collName, joined(forms, ", ", " and "));
    }
    case semantics::Rejection::Divisibility:
      return a.nchunksperloop <= 0
                 ? fmt::format("nchunksperloop={} divides {} for no count", a.nchunksperloop, term)
                 : fmt::format("nchunksperloop={} divides {} for no count of a call of at most {}", a.nchunksperloop,
                               term, base::byteSizeName(uint64_t{1} << semantics::kMaxConsideredBytesLog2));
    case semantics::Rejection::Window:
      if (g.selector == semantics::Selector::Legacy && a.maxBytes && *a.maxBytes == 0)
        return fmt::format(
            "the legacy runtime reads maxBytes=\"0\" as 0 bytes, not as unbounded: its window {} is empty",
            windowText(g.selector, a));
      return fmt::format("every call whose {} nchunksperloop={} divides is outside its window {}", term,
                         a.nchunksperloop, windowText(g.selector, a));
    default: return "no call matches it";
  }
}

// Whether a call whose element size the selector takes as -1 (the plugin's bfloat16 and fp8)
// selects the file: the group's calls do not hold those.
bool acceptsMinusOneSize(semantics::Selector s, const ir::Algorithm& a) {
  if (s != semantics::Selector::External) return false;
  for (semantics::CallForm form : formsPassed(s, a.coll))
    if (acceptedCounts(s, a, {a.coll, a.ngpus, form, -1, 0}, semantics::maxConsideredCount(a.coll, a.ngpus, 1)))
      return true;
  return false;
}

std::string orderText(semantics::Selector s, size_t position, size_t total, int32_t ranks) {
  switch (s) {
    case semantics::Selector::Internal: return fmt::format("path order, {} of {}", position + 1, total);
    case semantics::Selector::External:
    case semantics::Selector::Rccl: return "readdir order, unspecified";
    case semantics::Selector::Legacy:
      return fmt::format("MSCCL_XML_FILES in path order, {} of {} for {} ranks", position + 1, total, ranks);
  }
  return "";
}

class DirectoryCheck {
 public:
  DirectoryCheck(const std::vector<LoadedAlgorithm>& files, const Options& options) : files_(files), options_(options) {
    for (const LoadedAlgorithm& f : files)
      findings_.emplace_back(f.report->file, options, f.algorithm ? &f.algorithm->suppressions : nullptr);
  }

  void run() {
    for (semantics::Selector s : options_.profile.selectors) {
      if (s == semantics::Selector::Legacy)
        legacyLoadLimit();
      else if (files_.size() > static_cast<size_t>(options_.profile.maxAlgorithmFiles))
        directoryLoadLimit();
      analyseSelector(s);
    }
    findings();
    for (size_t f = 0; f < files_.size(); ++f) {
      if (!files_[f].algorithm) continue;
      FileReport& report = *files_[f].report;
      const bool failed = findings_[f].hasErrors(Check::Selection);
      findings_[f].moveInto(report);
      report.checks.push_back({Check::Selection, failed ? CheckStatus::Failed : CheckStatus::Passed,
                               fmt::format("checked against the directory's {} algorithm files", files_.size())});
      // Only a file without errors before this check can be verified, accepted or inconclusive.
      if (report.errorCount() > 0 && (report.verdict == Verdict::Verified || report.verdict == Verdict::Accepted ||
                                      report.verdict == Verdict::Inconclusive))
        report.verdict = Verdict::Violation;
      if (report.verdict == Verdict::Verified && report.suppressedCount() > 0) report.verdict = Verdict::Accepted;
    }
  }

 private:
  struct Slot {  // where one file sits in one selector's analysis
    size_t group;
    size_t member;
  };
  struct PerSelector {
    semantics::Selector selector;
    std::vector<GroupAnalysis> analyses;
    std::map<size_t, Slot> slots;  // by file index
  };

  // The executor takes a handle per file from a pool of MSCCL_MAX_NUM_ALGOS; past it the load
  // fails (mscclLoadAlgo).
  void directoryLoadLimit() {
    if (limitReported_) return;
    limitReported_ = true;
    findings_.back().error(Check::Selection, "selection.too-many-files", {},
                           fmt::format("the directory holds {} algorithm files; {} loads at most {}", files_.size(),
                                       options_.profile.name, options_.profile.maxAlgorithmFiles));
  }

  // The legacy runtime keeps the first MSCCL_MAX_NUM_ALGOS files that load for a communicator
  // (those for its rank count) and ignores the rest.
  void legacyLoadLimit() {
    std::map<int32_t, std::vector<size_t>> byRanks;
    for (size_t f = 0; f < files_.size(); ++f)
      if (files_[f].algorithm && loads(semantics::Selector::Legacy, *files_[f].algorithm))
        byRanks[files_[f].algorithm->ngpus].push_back(f);
    const size_t limit = static_cast<size_t>(options_.profile.maxAlgorithmFiles);
    for (const auto& [ranks, loaded] : byRanks) {
      for (size_t k = 0; k < loaded.size() && k < limit; ++k)
        legacyOrder_[loaded[k]] = orderText(semantics::Selector::Legacy, k, std::min(loaded.size(), limit), ranks);
      for (size_t k = limit; k < loaded.size(); ++k) {
        ignored_.push_back(loaded[k]);
        findings_[loaded[k]].error(
            Check::Selection, "selection.too-many-files", files_[loaded[k]].algorithm->where,
            fmt::format("{} loads at most {} algorithms for a communicator; {} earlier files are for {} ranks, so it "
                        "ignores this one",
                        options_.profile.name, limit, limit, ranks));
      }
    }
  }

  // The internal scheduler reads the headers in path order and returns at the first one its reader
  // refuses (msccl_lifecycle.cc:163-164, NCCLCHECK): the files after it never load. The plugin
  // reads on (msccl-scheduler scheduler.cc:143-155), and NCCL ignores both errors (connect.cc:486).
  // The index of that file, or the number of files.
  size_t internalStop() const {
    for (size_t f = 0; f < files_.size(); ++f)
      if (files_[f].algorithm && !loads(semantics::Selector::Internal, *files_[f].algorithm)) return f;
    return files_.size();
  }

  void stopsLoadingFinding(size_t stop) {
    const size_t later = files_.size() - stop - 1;
    if (later == 0) return;
    const ir::Algorithm& a = *files_[stop].algorithm;
    findings_[stop].error(Check::Selection, "selection.stops-loading", a.where,
                          fmt::format("{}: the internal scheduler stops reading the directory at this file ({}), so "
                                      "the {} algorithm file{} after it in path order never load{}",
                                      subject(a), notLoadedReason(semantics::Selector::Internal, a), later,
                                      later == 1 ? "" : "s", later == 1 ? "s" : ""));
  }

  void analyseSelector(semantics::Selector s) {
    std::map<std::pair<ir::CollectiveKind, int32_t>, std::vector<size_t>> groups;
    const size_t stop = s == semantics::Selector::Internal ? internalStop() : files_.size();
    if (stop < files_.size()) stopsLoadingFinding(stop);
    for (size_t f = 0; f < files_.size(); ++f) {
      const ir::Algorithm* a = files_[f].algorithm;
      if (!a) continue;
      if (s == semantics::Selector::Legacy && std::find(ignored_.begin(), ignored_.end(), f) != ignored_.end()) {
        files_[f].report->selection.push_back({std::string(selectorName(s)), "not loaded (too many files)", {}, {}});
        continue;
      }
      if (f > stop) {
        files_[f].report->selection.push_back(
            {std::string(selectorName(s)), "not loaded (the scheduler stopped at an earlier file)", {}, {}});
        continue;
      }
      groups[{a->coll, a->ngpus}].push_back(f);
    }
    std::map<size_t, Slot> slots;
    std::vector<GroupAnalysis> analyses;
    for (auto& [key, members] : groups) {
      analyses.push_back(analyse(s, key.first, key.second, members, files_));
      const GroupAnalysis& g = analyses.back();
      for (size_t m = 0; m < g.members.size(); ++m) slots[g.members[m]] = {analyses.size() - 1, m};
    }
    for (const auto& [f, slot] : slots) {
      const GroupAnalysis& g = analyses[slot.group];
      std::string order = orderText(s, f, files_.size(), files_[f].algorithm->ngpus);
      if (s == semantics::Selector::Legacy) order = legacyOrder_.count(f) ? legacyOrder_.at(f) : "not loaded";
      files_[f].report->selection.push_back({std::string(selectorName(s)), std::move(order),
                                             rangesOf(g.accepted[slot.member], g.calls),
                                             rangesOf(g.selected[slot.member], g.calls)});
    }
    perSelector_.push_back({s, std::move(analyses), std::move(slots)});
  }

  void findings() {
    for (size_t f = 0; f < files_.size(); ++f) {
      if (!files_[f].algorithm) continue;
      deadFinding(f);
      for (const PerSelector& p : perSelector_) shadowedFinding(f, p);
      for (size_t earlier = 0; earlier < f; ++earlier) ambiguousFinding(earlier, f);
    }
  }

  void deadFinding(size_t f) {
    const ir::Algorithm& a = *files_[f].algorithm;
    std::vector<semantics::Selector> dead;
    std::vector<std::string> reasons, alive;
    for (const PerSelector& p : perSelector_) {
      auto slot = p.slots.find(f);
      if (slot == p.slots.end()) continue;
      const GroupAnalysis& g = p.analyses[slot->second.group];
      if (g.calls.empty() && p.selector == semantics::Selector::Legacy && a.coll == ir::CollectiveKind::Custom)
        continue;  // run by its index (ncclCustomCollective), never selected by size
      const CallSet& accepted = g.accepted[slot->second.member];
      if (accepted.any()) {
        alive.push_back(fmt::format("the {} selects it for {}", selectorPhrase(p.selector),
                                    describeCalls(rangesOf(accepted, g.calls))));
        continue;
      }
      if (!g.calls.empty() && acceptsMinusOneSize(p.selector, a)) continue;
      dead.push_back(p.selector);
      reasons.push_back(deadReason(g, a));
    }
    if (dead.empty()) return;
    if (std::any_of(reasons.begin(), reasons.end(), [&](const std::string& r) { return r != reasons.front(); })) {
      for (size_t k = 0; k < dead.size(); ++k) reasons[k] = std::string(selectorPhrase(dead[k])) + ": " + reasons[k];
    } else {
      reasons.resize(1);
    }
    std::string message = fmt::format(
        "{}: no call of any count (1-, 2-, 4- and 8-byte types, and the plugin's size -1 for bfloat16 and fp8, up "
        "to {} a call) selects this file under {}: {}",
        subject(a), base::byteSizeName(uint64_t{1} << semantics::kMaxConsideredBytesLog2), selectorsPhrase(dead),
        joined(reasons, "; ", "; "));
    if (!alive.empty()) message += " (" + joined(alive, "; ", "; ") + ")";
    findings_[f].warning(Check::Selection, "selection.dead", a.where, message);
  }

  void shadowedFinding(size_t f, const PerSelector& p) {
    if (!hasFixedOrder(p.selector)) return;
    auto slot = p.slots.find(f);
    if (slot == p.slots.end()) return;
    const GroupAnalysis& g = p.analyses[slot->second.group];
    const CallSet& accepted = g.accepted[slot->second.member];
    if (accepted.none() || g.selected[slot->second.member].any()) return;
    std::vector<size_t> takers;
    for (size_t c = 0; c < g.calls.size(); ++c)
      if (accepted[c] && std::find(takers.begin(), takers.end(), *g.winner[c]) == takers.end())
        takers.push_back(*g.winner[c]);
    std::sort(takers.begin(), takers.end());
    std::vector<std::string> names;
    for (size_t m : takers) names.push_back(files_[g.members[m]].report->file);
    const ir::Algorithm& a = *files_[f].algorithm;
    findings_[f].error(Check::Selection, "selection.shadowed", a.where,
                       fmt::format("{}: the {} tries files in {} and gives every call this file accepts ({}) to {} "
                                   "first, so this file is never selected",
                                   subject(a), selectorPhrase(p.selector),
                                   p.selector == semantics::Selector::Legacy ? "MSCCL_XML_FILES order" : "path order",
                                   callsWithExample(accepted, g.calls), joined(names, ", ", " and ")));
  }

  void ambiguousFinding(size_t earlier, size_t later) {
    struct Clause {
      std::vector<semantics::Selector> selectors;
      std::vector<CallRange> ranges;
      std::string calls;
    };
    std::vector<Clause> clauses;
    for (const PerSelector& p : perSelector_) {
      auto a = p.slots.find(earlier), b = p.slots.find(later);
      if (a == p.slots.end() || b == p.slots.end() || a->second.group != b->second.group) continue;
      const GroupAnalysis& g = p.analyses[a->second.group];
      const CallSet both = g.accepted[a->second.member] & g.accepted[b->second.member];
      if (both.none()) continue;
      if (hasFixedOrder(p.selector) && g.selected[b->second.member].none()) continue;  // selection.shadowed says it
      std::vector<CallRange> ranges = rangesOf(both, g.calls);
      auto same =
          std::find_if(clauses.begin(), clauses.end(), [&](const Clause& c) { return sameRanges(c.ranges, ranges); });
      if (same != clauses.end())
        same->selectors.push_back(p.selector);
      else
        clauses.push_back({{p.selector}, std::move(ranges), callsWithExample(both, g.calls)});
    }
    if (clauses.empty()) return;
    const std::string& other = files_[earlier].report->file;
    std::vector<std::string> parts;
    for (const Clause& c : clauses) {
      std::vector<std::string> outcomes;
      for (semantics::Selector s : c.selectors)
        outcomes.push_back(hasFixedOrder(s)
                               ? fmt::format("{} gives them to {}",
                                             s == semantics::Selector::Legacy ? "MSCCL_XML_FILES order" : "path order",
                                             other)
                               : "readdir order, which is unspecified, gives them to either file");
      parts.push_back(fmt::format("under {} both accept {}, and {}", selectorsPhrase(c.selectors), c.calls,
                                  joined(outcomes, ", ", " and ")));
    }
    const ir::Algorithm& a = *files_[later].algorithm;
    findings_[later].error(Check::Selection, "selection.ambiguous", a.where,
                           fmt::format("{}: this file and {} can both be selected for the same calls: {}", subject(a),
                                       other, joined(parts, "; ", "; ")));
  }

  const std::vector<LoadedAlgorithm>& files_;
  const Options& options_;
  std::vector<Findings> findings_;
  std::vector<PerSelector> perSelector_;
  std::vector<size_t> ignored_;                // legacy: files past the load limit
  std::map<size_t, std::string> legacyOrder_;  // legacy: where each loaded file sits in the list
  bool limitReported_ = false;
};

}  // namespace

void checkSelection(const std::vector<LoadedAlgorithm>& files, const Options& options) {
  DirectoryCheck(files, options).run();
}

FileReport strayFileReport(const std::string& path, const std::string& why, size_t laterEntries,
                           const Options& options) {
  FileReport r;
  r.file = path;
  const bool executor = std::find(options.profile.selectors.begin(), options.profile.selectors.end(),
                                  semantics::Selector::Legacy) == options.profile.selectors.end();
  Findings findings(path, options);
  if (executor) {
    findings.error(Check::Selection, "selection.stray-file", {},
                   fmt::format("not an algorithm file: {}. The executor reads every regular file and symbolic link of "
                               "the directory as an algorithm; its header reader fails on this one (NCCL ignores the "
                               "error) and leaves a zeroed header whose nchunksperloop of 0 the selection divides by "
                               "for every call no file before it takes, and the internal scheduler never loads the {} "
                               "entr{} after it in path order",
                               why, laterEntries, laterEntries == 1 ? "y" : "ies"));
  } else {
    findings.warning(Check::Selection, "selection.stray-file", {},
                     fmt::format("not an algorithm file: {}; named in MSCCL_XML_FILES, the legacy runtime skips it "
                                 "with a warning",
                                 why));
  }
  findings.moveInto(r);
  r.checks.push_back({Check::Selection, executor ? CheckStatus::Failed : CheckStatus::Passed, "not an algorithm file"});
  r.verdict = executor ? Verdict::Violation : Verdict::Verified;
  return r;
}

std::string describeCalls(const std::vector<CallRange>& calls) {
  if (calls.empty()) return "no call";
  std::vector<std::string> forms;
  for (const CallRange& r : calls)
    if (std::find(forms.begin(), forms.end(), r.callForm) == forms.end()) forms.push_back(r.callForm);
  auto typeList = [](const std::vector<int32_t>& sizes) {
    std::vector<std::string> names;
    for (int32_t t : sizes) names.push_back(std::to_string(t));
    return joined(names, "/", "/") + (sizes.size() == 1 ? "-byte type" : "-byte types");
  };
  // One end of the runs of several element sizes: the same size in bytes, else the same count,
  // else each size.
  auto end = [](const std::vector<const CallRange*>& runs, bool low) {
    auto bytes = [&](const CallRange* r) { return low ? r->bytesMin : r->bytesMax; };
    auto count = [&](const CallRange* r) { return low ? r->countMin : r->countMax; };
    auto all = [&](auto value) {
      return std::all_of(runs.begin(), runs.end(), [&](const CallRange* r) { return value(r) == value(runs.front()); });
    };
    if (all(bytes)) return base::byteSizeName(bytes(runs.front()));
    if (all(count)) return fmt::format("count {}", count(runs.front()));
    std::vector<std::string> texts;
    for (const CallRange* r : runs) texts.push_back(base::byteSizeName(bytes(r)));
    return joined(texts, "/", "/");
  };
  std::vector<std::string> parts;
  for (const std::string& form : forms) {
    std::vector<const CallRange*> runs;
    std::vector<int32_t> types;
    for (const CallRange& r : calls)
      if (r.callForm == form) {
        runs.push_back(&r);
        if (std::find(types.begin(), types.end(), r.typeSize) == types.end()) types.push_back(r.typeSize);
      }
    if (runs.size() == types.size()) {  // one run per element size
      const std::string low = end(runs, true), high = end(runs, false);
      parts.push_back(low == high ? fmt::format("{} {} with {}", form, low, typeList(types))
                                  : fmt::format("{} from {} to {} with {}", form, low, high, typeList(types)));
      continue;
    }
    for (int32_t t : types) {
      std::vector<std::string> spans;
      for (const CallRange* r : runs)
        if (r->typeSize == t)
          spans.push_back(r->bytesMin == r->bytesMax
                              ? base::byteSizeName(r->bytesMin)
                              : base::byteSizeName(r->bytesMin) + ".." + base::byteSizeName(r->bytesMax));
      parts.push_back(fmt::format("{} {} with {}", form, joined(spans, ", ", ", "), typeList({t})));
    }
  }
  return joined(parts, "; ", "; ");
}

}  // namespace ccforge::verify
