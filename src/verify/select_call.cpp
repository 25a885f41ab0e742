#include "verify/select_call.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "base/input_error.hpp"
#include "base/limits.hpp"
#include "ir/names.hpp"
#include "ir/reader.hpp"
#include "verify/directory.hpp"

namespace ccforge::verify {
namespace {

struct DirectoryFile {
  std::string path;
  ir::Algorithm header;
};

std::vector<DirectoryFile> readDirectory(const std::string& directory) {
  std::error_code ec;
  const std::vector<DirectoryEntry> entries = listAlgorithmDirectory(directory, ec);
  if (ec) throw base::InputError(directory, {}, "cannot read directory: " + ec.message());
  std::vector<DirectoryFile> files;
  for (const DirectoryEntry& e : entries) {
    if (e.stray)
      throw base::InputError(e.path, {1, 1},
                             "not an algorithm file: " + *e.stray + "; `ccforge verify " + directory +
                                 "` says what each runtime does with it");
    ir::ReadResult read = ir::readAlgorithmFile(e.path);
    read.algorithm.gpus = {};  // selection reads the header only
    files.push_back({e.path, std::move(read.algorithm)});
  }
  return files;
}

bool rooted(ir::CollectiveKind c) { return c == ir::CollectiveKind::Broadcast || c == ir::CollectiveKind::Reduce; }

std::string why(semantics::Selector s, const ir::Algorithm& a, const semantics::SelectionCall& call,
                semantics::Rejection r) {
  switch (r) {
    case semantics::Rejection::None: return "accepts the call";
    case semantics::Rejection::NotLoaded: return notLoadedReason(s, a);
    case semantics::Rejection::Collective: return fmt::format("another collective (coll=\"{}\")", a.collName);
    case semantics::Rejection::Ranks: return fmt::format("for {} ranks", a.ngpus);
    case semantics::Rejection::CallForm: return fmt::format("does not serve {} calls", callFormName(call.form));
    case semantics::Rejection::Divisibility:
      return fmt::format("nchunksperloop={} does not divide {} (count {})", a.nchunksperloop,
                         divisibilityTerm(s, call.coll, call.ranks), call.count);
    case semantics::Rejection::Window:
      return fmt::format("its window {} does not hold {} bytes", windowText(s, a), semantics::callBytes(call));
  }
  return "";
}

// The rank counts to answer for: the request's, else those of the directory's files of the collective.
std::vector<int32_t> rankCounts(const std::vector<DirectoryFile>& files, const SelectRequest& request) {
  if (request.ranks) return {*request.ranks};
  std::set<int32_t> counts;
  for (const DirectoryFile& f : files)
    if (f.header.coll == request.coll && f.header.ngpus >= 1) counts.insert(f.header.ngpus);
  return {counts.begin(), counts.end()};
}

SelectorAnswer answer(semantics::Selector s, int32_t ranks, uint64_t count, const std::vector<DirectoryFile>& files,
                      const SelectRequest& request) {
  SelectorAnswer a;
  a.selector = s;
  a.ranks = ranks;
  a.count = count;
  a.selectorTypeSize = selectorTypeSize(s, *request.type);
  a.selectorBytes = semantics::callBytes({request.coll, ranks, request.form, a.selectorTypeSize, count});
  std::map<semantics::CallForm, std::vector<int32_t>> byForm;
  for (int32_t rank = 0; rank < ranks; ++rank)
    byForm[seenForm(s, request.coll, request.form, a.selectorTypeSize, request.type->size, rank)].push_back(rank);
  std::set<std::optional<std::string>> outcomes;
  for (const auto& [seen, group] : byForm) {
    RankChoice choice{group, seen, {}, {}};
    const semantics::SelectionCall call{request.coll, ranks, seen, a.selectorTypeSize, count};
    for (const DirectoryFile& f : files) {
      const semantics::Rejection r = rejection(s, f.header, call);
      choice.tests.push_back({f.path, r, why(s, f.header, call, r)});
      if (r == semantics::Rejection::None) choice.takers.push_back(f.path);
    }
    if (choice.takers.empty()) {
      outcomes.insert(std::nullopt);
    } else {
      outcomes.insert(choice.takers.front());
      if (!hasFixedOrder(s) && choice.takers.size() > 1) a.determined = false;
    }
    a.choices.push_back(std::move(choice));
  }
  if (outcomes.size() > 1) a.determined = false;
  if (a.determined && !outcomes.empty()) a.runs = *outcomes.begin();
  if (a.selectorTypeSize != request.type->size)
    a.notes.push_back(fmt::format(
        "the plugin's ncclTypeSize returns -1 for {} (src/scheduler.cc lists it only in RCCL builds or not at all), "
        "so it compares count x -1 in size_t: {} bytes; only a file without maxBytes (or with maxBytes=\"0\") holds "
        "that",
        request.type->name, a.selectorBytes));
  if (byForm.size() > 1)
    a.notes.push_back(
        "each rank decides in-place by comparing its buffers with an offset of rank x count x the selector's element "
        "size; with size -1 only rank 0 finds the in-place layout, every other rank sees an out-of-place call");
  if (!a.determined)
    a.notes.push_back(outcomes.size() > 1
                          ? "the ranks do not run the same program: the call hangs or computes the wrong result"
                          : "several files accept the call and readdir order, which is unspecified, picks one");
  if (request.root && rooted(request.coll) && a.runs)
    a.notes.push_back(fmt::format(
        "neither selector compares the root: {} runs for root {} as for any root, with the root its program was "
        "written for (the file does not name it; `ccforge verify --collective {}:{}` checks the program for root {})",
        *a.runs, *request.root, ir::collectiveName(request.coll), *request.root, *request.root));
  return a;
}

std::string_view selectorTitle(semantics::Selector s) {
  switch (s) {
    case semantics::Selector::Internal: return "executor (msccl-executor-nccl's internal scheduler, path order)";
    case semantics::Selector::External: return "plugin (Azure/msccl-scheduler, readdir order)";
    case semantics::Selector::Legacy: return "legacy (microsoft/msccl, MSCCL_XML_FILES order)";
    case semantics::Selector::Rccl: return "rccl (ROCm/rccl's internal scheduler, readdir order)";
  }
  return "?";
}

std::string joinedPaths(const std::vector<std::string>& paths) {
  std::string s;
  for (const std::string& p : paths) s += (s.empty() ? "" : ", ") + p;
  return s;
}

std::string rankList(const std::vector<int32_t>& ranks, int32_t total) {
  if (static_cast<int32_t>(ranks.size()) == total) return "every rank";
  if (ranks.size() == 1) return fmt::format("rank {}", ranks.front());
  return fmt::format("ranks {}..{}", ranks.front(), ranks.back());
}

}  // namespace

std::vector<SelectorAnswer> selectCall(const std::string& directory, const SelectRequest& request,
                                       const std::vector<semantics::Selector>& selectors) {
  if (!request.type) throw std::invalid_argument("select: no data type");
  if (request.bytes.has_value() == request.count.has_value())
    throw std::invalid_argument("give the call's size as --bytes or as --count, one of them");
  if (request.ranks && *request.ranks < 1) throw std::invalid_argument("--ranks must be at least 1");
  if (request.root) {
    if (!rooted(request.coll))
      throw std::invalid_argument(fmt::format("{} has no root", ir::collectiveName(request.coll)));
    if (*request.root < 0 || (request.ranks && *request.root >= *request.ranks))
      throw std::invalid_argument(fmt::format("--root {} is not one of the ranks", *request.root));
  }
  const std::vector<DirectoryFile> files = readDirectory(directory);
  std::vector<SelectorAnswer> answers;
  for (int32_t ranks : rankCounts(files, request)) {
    if (ranks > base::limits::kMaxProgramRanks)
      throw base::LimitExceeded(fmt::format("select: {} ranks is over ccforge's limit of {} ranks a program", ranks,
                                            base::limits::kMaxProgramRanks));
    if (request.root && *request.root >= ranks) continue;
    uint64_t count = request.count.value_or(0);
    if (request.bytes) {
      const uint64_t perCount =
          static_cast<uint64_t>(request.type->size) * semantics::sizeMultiplier(request.coll, ranks);
      if (*request.bytes == 0 || *request.bytes % perCount != 0)
        throw std::invalid_argument(
            fmt::format("--bytes {} is not a positive multiple of {} ({}-byte {}{}): no call has that size",
                        *request.bytes, perCount, request.type->size, request.type->name,
                        semantics::sizeMultiplier(request.coll, ranks) > 1 ? fmt::format(" x {} ranks", ranks) : ""));
      count = *request.bytes / perCount;
    }
    if (count == 0) throw std::invalid_argument("--count must be at least 1");
    for (semantics::Selector s : selectors) answers.push_back(answer(s, ranks, count, files, request));
  }
  return answers;
}

bool allDetermined(const std::vector<SelectorAnswer>& answers) {
  return std::all_of(answers.begin(), answers.end(), [](const SelectorAnswer& a) { return a.determined; });
}

void writeSelectAnswers(std::ostream& out, const SelectRequest& request, const std::vector<SelectorAnswer>& answers) {
  if (answers.empty()) {
    out << fmt::format("no file of the directory is for {}{}: NCCL runs every such call\n",
                       ir::collectiveName(request.coll),
                       request.ranks ? fmt::format(" on {} ranks", *request.ranks) : "");
    return;
  }
  for (const SelectorAnswer& a : answers) {
    const uint64_t bytes =
        a.count * static_cast<uint64_t>(request.type->size) * semantics::sizeMultiplier(request.coll, a.ranks);
    out << fmt::format("{} on {} ranks, {} call, count {} of {} ({} bytes){}\n", ir::collectiveName(request.coll),
                       a.ranks, callFormName(request.form), a.count, request.type->name, bytes,
                       request.root ? fmt::format(", root {}", *request.root) : "");
    out << "  " << selectorTitle(a.selector) << ": ";
    if (a.determined)
      out << (a.runs ? "every rank runs " + *a.runs : std::string("no file accepts it: NCCL runs the call")) << "\n";
    else
      out << "not determined\n";
    for (const RankChoice& c : a.choices) {
      std::string outcome = c.takers.empty()                                    ? "NCCL"
                            : c.takers.size() == 1 || hasFixedOrder(a.selector) ? c.takers.front()
                                                                                : "any of " + joinedPaths(c.takers);
      out << fmt::format("    {} (sees {}): {}\n", rankList(c.ranks, a.ranks), callFormName(c.seen), outcome);
      for (const FileTest& t : c.tests) out << fmt::format("      {}: {}\n", t.path, t.why);
    }
    for (const std::string& n : a.notes) out << "  note: " << n << "\n";
  }
}

}  // namespace ccforge::verify
