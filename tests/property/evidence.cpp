#include "evidence.hpp"

#include <regex>

#include "ir/names.hpp"
#include "semantics/loaded_program.hpp"
#include "semantics/step_kinds.hpp"

namespace ccforge::property {
namespace {

semantics::CallForm formNamed(const std::string& s) {
  return s == "in-place" ? semantics::CallForm::InPlace : semantics::CallForm::OutOfPlace;
}

// The chunk range a step reads or writes, as the runtime executes it.
struct Range {
  ir::Buffer buffer;
  int32_t offset;
  int32_t count;
  bool writes;
};

std::vector<Range> rangesOf(const semantics::LoadedStep& s) {
  std::vector<Range> out;
  if (semantics::readsLocalSource(s.type)) out.push_back({s.srcbuf, s.srcoff, s.cnt, false});
  if (semantics::readsLocalDestination(s.type)) out.push_back({s.dstbuf, s.dstoff, s.cnt, false});
  if (semantics::writesLocalDestination(s.type)) out.push_back({s.dstbuf, s.dstoff, s.cnt, true});
  return out;
}

// Whether `r` covers chunk `index` of `buffer` (aliasing as the call form lays the buffers out).
bool covers(const semantics::RankLayout& layout, const Range& r, ir::Buffer buffer, int32_t index) {
  const semantics::BufferView &a = layout.view(r.buffer), &b = layout.view(buffer);
  const int32_t at = b.base + index, begin = a.base + r.offset;
  return a.region == b.region && begin <= at && at < begin + r.count;
}

class StepLookup {
 public:
  explicit StepLookup(const ir::Algorithm& algorithm) : load_(semantics::loadProgram(algorithm)) {}
  // The loaded step a finding names, or nullptr.
  const semantics::LoadedStep* find(const verify::StepRef& ref) const {
    if (!load_.program || ref.rank < 0 || ref.rank >= load_.program->ranks() || ref.tb < 0 ||
        ref.tb >= load_.program->threadBlocksOfRank(ref.rank))
      return nullptr;
    const int32_t tb = load_.program->globalTb(ref.rank, ref.tb);
    if (ref.step < 0 || ref.step >= load_.program->stepsOf(tb)) return nullptr;
    return &load_.program->step(load_.program->firstStep(tb) + static_cast<uint32_t>(ref.step));
  }

 private:
  semantics::LoadResult load_;
};

std::string refName(const verify::StepRef& r) {
  return "rank " + std::to_string(r.rank) + " tb " + std::to_string(r.tb) + " step " + std::to_string(r.step);
}

void checkPostcondition(const StepLookup& steps, const semantics::Collective& collective, const verify::Violation& v,
                        std::vector<std::string>& problems) {
  static const std::regex kMessage(
      R"(^(in-place|out-of-place): rank (\d+) output chunk (\d+) holds (.+), but .+ requires (.+)$)");
  std::smatch m;
  if (!std::regex_match(v.message, m, kMessage)) {
    problems.push_back("the message does not name the chunk, its value and the required one");
    return;
  }
  if (m[4] == m[5]) problems.push_back("the chunk holds what is required");
  if (v.evidence.empty()) problems.push_back("no evidence of how the value differs");
  const bool unwritten = std::any_of(v.evidence.begin(), v.evidence.end(),
                                     [](const std::string& e) { return e.starts_with("no step writes it"); });
  if (v.steps.empty()) {
    if (!unwritten) problems.push_back("no step that produced the value, and no evidence that none wrote it");
    return;
  }
  for (const verify::StepRef& r : v.steps)
    if (!steps.find(r)) problems.push_back("names " + refName(r) + ", which does not exist");
  const verify::StepRef& last = v.steps.back();
  const semantics::LoadedStep* writer = steps.find(last);
  if (!writer) return;
  const int32_t rank = std::stoi(m[2]), chunk = std::stoi(m[3]);
  const semantics::RankLayout layout = collective.layout(rank, formNamed(m[1]), 0);
  const std::vector<Range> ranges = rangesOf(*writer);
  const bool writesIt = last.rank == rank && std::any_of(ranges.begin(), ranges.end(), [&](const Range& r) {
                          return r.writes && covers(layout, r, ir::Buffer::Output, chunk);
                        });
  if (!writesIt) problems.push_back("the last step named, " + refName(last) + ", does not write the wrong chunk");
}

void checkRace(const StepLookup& steps, const semantics::Collective& collective, const verify::Violation& v,
               std::vector<std::string>& problems) {
  static const std::regex kMessage(
      R"(^(in-place|out-of-place): rank (\d+) ([ios])\[(\d+)\] is accessed by tb (\d+) step (\d+) and tb (\d+) step (\d+),)");
  std::smatch m;
  if (!std::regex_search(v.message, m, kMessage)) {
    problems.push_back("the message does not name the chunk and the two steps");
    return;
  }
  if (v.steps.size() != 2) {
    problems.push_back("names " + std::to_string(v.steps.size()) + " steps, not the two that race");
    return;
  }
  const int32_t rank = std::stoi(m[2]), index = std::stoi(m[4]);
  const ir::Buffer buffer = *ir::parseBuffer(m[3].str());
  const semantics::RankLayout layout = collective.layout(rank, formNamed(m[1]), 0);
  bool someWrite = false;
  for (const verify::StepRef& r : v.steps) {
    const semantics::LoadedStep* s = steps.find(r);
    if (!s || r.rank != rank) {
      problems.push_back("names " + refName(r) + ", which is not a step of rank " + std::to_string(rank));
      continue;
    }
    bool touches = false;
    for (const Range& range : rangesOf(*s))
      if (covers(layout, range, buffer, index)) {
        touches = true;
        someWrite = someWrite || range.writes;
      }
    if (!touches) problems.push_back(refName(r) + " does not touch the chunk the race is about");
  }
  if (v.steps[0].tb == v.steps[1].tb) problems.push_back("the two steps are in one thread block, which orders them");
  if (!someWrite) problems.push_back("neither step writes the chunk");
}

// One step whose source and destination share memory, shifted: recomputed from the step itself.
void checkRaceWithinStep(const StepLookup& steps, const semantics::Collective& collective, const verify::Violation& v,
                         std::vector<std::string>& problems) {
  static const std::regex kMessage(R"(^(in-place|out-of-place): rank (\d+) tb (\d+) step (\d+): ')");
  std::smatch m;
  if (!std::regex_search(v.message, m, kMessage) || v.steps.size() != 1) {
    problems.push_back("the message does not name the one step");
    return;
  }
  const verify::StepRef& r = v.steps.front();
  const semantics::LoadedStep* s = steps.find(r);
  if (!s || r.rank != std::stoi(m[2]) || r.tb != std::stoi(m[3]) || r.step != std::stoi(m[4])) {
    problems.push_back("names " + refName(r) + ", which is not the step of the message");
    return;
  }
  const semantics::RankLayout layout = collective.layout(r.rank, formNamed(m[1]), 0);
  const semantics::BufferView &src = layout.view(s->srcbuf), &dst = layout.view(s->dstbuf);
  const int64_t from = int64_t{src.base} + s->srcoff, to = int64_t{dst.base} + s->dstoff;
  const bool shiftedOverlap = src.region == dst.region && from != to && from < to + s->cnt && to < from + s->cnt;
  if (!semantics::readsLocalSource(s->type) || !semantics::writesLocalDestination(s->type) || !shiftedOverlap)
    problems.push_back(refName(r) + " does not read and write the same memory shifted");
}

void checkDeadlock(const StepLookup& steps, const verify::Violation& v, std::vector<std::string>& problems) {
  if (!deadlockConfigurationOf(v)) problems.push_back("the message does not name the configuration that deadlocks");
  if (v.steps.empty()) problems.push_back("names no waiting thread block");
  for (const verify::StepRef& r : v.steps)
    if (!steps.find(r)) problems.push_back("names " + refName(r) + ", which does not exist");
}

}  // namespace

std::optional<WrongChunk> wrongChunkOf(const verify::Violation& v) {
  static const std::regex kMessage(R"(^(in-place|out-of-place): rank (\d+) output chunk (\d+) holds (.+), but )");
  std::smatch m;
  if (v.rule != "postcondition.wrong-chunk" || !std::regex_search(v.message, m, kMessage)) return std::nullopt;
  return WrongChunk{formNamed(m[1]), std::stoi(m[2]), std::stoi(m[3]),
                    m[4].str().find("uninitialised") != std::string::npos};
}

std::optional<DeadlockConfiguration> deadlockConfigurationOf(const verify::Violation& v) {
  static const std::regex kConfiguration(R"(tiles=(\d+) maxAllowedCount=(\d+) slots=(\d+))");
  std::smatch m;
  if (!v.rule.starts_with("deadlock.") || !std::regex_search(v.message, m, kConfiguration)) return std::nullopt;
  return DeadlockConfiguration{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
}

std::vector<std::string> evidenceProblems(const ir::Algorithm& algorithm, const semantics::Collective& collective,
                                          const verify::Violation& v) {
  std::vector<std::string> problems;
  const StepLookup steps(algorithm);
  if (v.rule == "postcondition.wrong-chunk")
    checkPostcondition(steps, collective, v, problems);
  else if (v.rule == "race.within-step")
    checkRaceWithinStep(steps, collective, v, problems);
  else if (v.rule.starts_with("race."))
    checkRace(steps, collective, v, problems);
  else if (v.rule.starts_with("deadlock."))
    checkDeadlock(steps, v, problems);
  return problems;
}

}  // namespace ccforge::property
