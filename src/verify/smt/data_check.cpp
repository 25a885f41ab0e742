#include "verify/smt/data_check.hpp"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "ir/names.hpp"

#include "verify/layouts.hpp"
#include "verify/smt/data_encoding.hpp"
#include "verify/smt/data_replay.hpp"
#include "verify/smt/deadlock_queries.hpp"
#include "verify/step_graph.hpp"

namespace ccforge::verify::smt {
namespace {

constexpr uint32_t kMaxSteps = 20'000;  // the happens-before closure is quadratic in steps
constexpr size_t kReadsShown = 8;

struct Question {
  verify::Check check;
  const char* rule;
  const char* kind;  // witness kind
  std::string name;
  int32_t slots;  // the slot count whose back-pressure orders the steps; 0: unbounded FIFOs
};

class DataChecker {
 public:
  DataChecker(const DataCheckInput& input, ccforge::smt::QueryRunner& runner, verify::Findings& findings)
      : input_(input), runner_(runner), findings_(findings) {}

  SmtDataResult run() {
    const semantics::LoadedProgram& index = input_.index;
    if (index.stepCount() > kMaxSteps) {
      const std::string why = fmt::format("SMT: the data encoding covers programs of up to {} steps; this one has {}",
                                          kMaxSteps, index.stepCount());
      result_.races = result_.postcondition = verify::CheckStatus::Inconclusive;
      result_.racesNote = result_.postconditionNote = why;
      return result_;
    }
    for (semantics::CallForm form : input_.forms) checkForm(form);
    result_.racesNote = note(result_.races, unknownRaces_, "no interleaving changes an output chunk");
    result_.postconditionNote =
        note(result_.postcondition, unknownPostcondition_, "every interleaving meets the postcondition");
    return result_;
  }

 private:
  std::string note(verify::CheckStatus status, const std::string& unknown, const std::string& passed) const {
    std::string forms = fmt::format("{} call form{}", input_.forms.size(), input_.forms.size() == 1 ? "" : "s");
    if (status == verify::CheckStatus::Passed) return fmt::format("SMT: {} ({})", passed, forms);
    if (status == verify::CheckStatus::Failed) return fmt::format("SMT: a witness schedule shows it ({})", forms);
    return "SMT: " + unknown;
  }

  void checkForm(semantics::CallForm form) {
    const semantics::LoadedProgram& index = input_.index;
    std::vector<semantics::RankLayout> layouts = verify::rankLayouts(input_.collective, form, input_.bufferLengths);
    semantics::ChunkValues values;
    DataSetting setting(index, layouts, input_.collective, values);
    SyncGraph bounded(index,
                      {verify::backPressureDistance(index.algorithm().proto, input_.slotsChecked), input_.boxes});

    // Races: the outputs of one interleaving are the targets; any difference is a race that matters.
    DataReplay reference = replayDataSchedule(setting, bounded, atomicSchedule(setting, bounded));
    if (!reference.ok) throw std::logic_error("the atomic interleaving does not replay: " + reference.error);
    std::vector<std::optional<semantics::ChunkValues::Id>> targets(reference.outputs.begin(), reference.outputs.end());
    ask(setting, bounded, reference, targets,
        {verify::Check::Races, "race.changes-result", "nondeterministic-output",
         fmt::format("races {}", callFormName(form)), input_.slotsChecked},
        form, result_.races);

    if (!input_.collective) return;
    // The data a program computes does not depend on slots: if it only deadlocks for lack of
    // them, evaluate it with unbounded FIFOs (as the simulation does).
    std::optional<SyncGraph> unbounded;
    if (!bounded.allRun()) unbounded.emplace(index, verify::BackPressure{});
    targets.clear();
    for (const OutputChunk& o : setting.outputs()) targets.push_back(o.expected);
    const SyncGraph& dataOrder = unbounded ? *unbounded : bounded;
    DataReplay atomic = replayDataSchedule(setting, dataOrder, atomicSchedule(setting, dataOrder));
    ask(setting, dataOrder, atomic, targets,
        {verify::Check::Postcondition, "postcondition.interleaving", "wrong-output",
         fmt::format("postcondition {}", callFormName(form)), unbounded ? 0 : input_.slotsChecked},
        form, result_.postcondition);
  }

  void ask(const DataSetting& setting, const SyncGraph& graph, const DataReplay& reference,
           const std::vector<std::optional<semantics::ChunkValues::Id>>& targets, const Question& q,
           semantics::CallForm form, verify::CheckStatus& status) {
    DataEncoding encoding(setting, graph, targets, q.name, q.kind);
    if (!encoding.built()) {
      downgrade(status, fmt::format("{}: {}", q.name, encoding.whyNot()));
      return;
    }
    ccforge::smt::QueryOutcome outcome = runner_.run(encoding.query());
    result_.queries.push_back(queryRecord(std::string(verify::checkName(q.check)), outcome));
    if (outcome.disagreement)
      result_.internalErrors.push_back(fmt::format("{}: the solvers disagree: {}", q.name, outcome.reason));
    if (outcome.model().empty()) {
      if (outcome.answer != ccforge::smt::Answer::Unsat)
        downgrade(status, fmt::format("{}: {}", q.name, outcome.reason));
      return;
    }
    DataWitness w = encoding.witness(outcome.model());
    w.witness.callForm = std::string(callFormName(form));
    w.witness.slots = q.slots;
    w.witness.boxes = input_.boxes.boxesOf(input_.index.ranks());
    DataReplay replay = replayDataSchedule(setting, graph, w.witness.schedule);
    std::string problem = replay.ok ? "" : replay.error;
    for (const auto& [k, value] : w.differing)
      if (problem.empty() && replay.outputs[k] != value)
        problem = fmt::format("output chunk {} of rank {} ends with a different value than the model says",
                              setting.outputs()[k].index, setting.outputs()[k].rank);
    if (problem.empty() && w.differing.empty()) problem = "the model claims no output differs";
    w.witness.replay = problem.empty() ? fmt::format(
                                             "replayed: all {} events run in an order the synchronisation "
                                             "allows and the outputs end as listed",
                                             w.witness.schedule.size())
                                       : "does not replay: " + problem;
    if (!problem.empty()) {
      result_.internalErrors.push_back(fmt::format("{}: the witness does not replay: {}", q.name, problem));
      downgrade(status, q.name + ": a sat answer whose witness does not replay");
    } else {
      report(setting, q, form, w, replay, reference, targets);
      status = verify::CheckStatus::Failed;
    }
    result_.witnesses.push_back(std::move(w.witness));
  }

  // The reads that saw a different write than in the reference interleaving: where the race is.
  std::vector<verify::StepRef> differingReads(const DataReplay& witness, const DataReplay& reference) const {
    const semantics::LoadedProgram& index = input_.index;
    std::map<std::tuple<uint32_t, int32_t, bool>, uint32_t> before;
    for (const SeenWrite& r : reference.reads) before[{r.step, r.chunk, r.destination}] = r.writer;
    auto who = [&](uint32_t writer) {
      if (writer == semantics::kNoStep) return std::string("its initial value");
      const verify::StepRef w = verify::stepRef(index, writer);
      return fmt::format("the write of tb {} step {}", w.tb, w.step);
    };
    std::vector<verify::StepRef> out;
    for (const SeenWrite& r : witness.reads) {
      auto it = before.find({r.step, r.chunk, r.destination});
      if (it == before.end() || it->second == r.writer || out.size() >= kReadsShown) continue;
      const semantics::LoadedStep& st = index.step(r.step);
      const char buffer = ir::bufferLetter(r.destination ? st.dstbuf : st.srcbuf);
      const int32_t offset = (r.destination ? st.dstoff : st.srcoff) + r.chunk;
      out.push_back(
          verify::stepRef(index, r.step,
                          fmt::format("'{}' reads {}[{}]: {} here, {} in the other interleaving",
                                      ir::opTypeName(st.type), buffer, offset, who(r.writer), who(it->second)),
                          0));
    }
    return out;
  }

  void report(const DataSetting& setting, const Question& q, semantics::CallForm form, DataWitness& w,
              const DataReplay& replay, const DataReplay& reference,
              const std::vector<std::optional<semantics::ChunkValues::Id>>& targets) {
    const semantics::LoadedProgram& index = input_.index;
    semantics::ChunkValues& values = setting.values();
    std::vector<verify::StepRef> steps = differingReads(replay, reference);
    for (const auto& [k, value] : w.differing) {
      const OutputChunk& o = setting.outputs()[k];
      w.witness.outcome.push_back(
          q.check == verify::Check::Races
              ? fmt::format("rank {} output chunk {} holds {} here, {} in another interleaving", o.rank, o.index,
                            values.describe(value), values.describe(*targets[k]))
              : fmt::format("rank {} output chunk {} holds {}, but the postcondition requires {}", o.rank, o.index,
                            values.describe(value), values.describe(*targets[k])));
      if (replay.lastWriter[k] != semantics::kNoStep && steps.size() < kReadsShown)
        steps.push_back(verify::stepRef(index, replay.lastWriter[k],
                                        fmt::format("writes rank {} output chunk {} last", o.rank, o.index), 0));
    }
    const OutputChunk& first = setting.outputs()[w.differing.front().first];
    std::string message =
        q.check == verify::Check::Races
            ? fmt::format(
                  "{}: the result depends on the interleaving: rank {} output chunk {} holds {} in one and {} "
                  "in another",
                  callFormName(form), first.rank, first.index, values.describe(w.differing.front().second),
                  values.describe(*targets[w.differing.front().first]))
            : fmt::format(
                  "{}: in some interleaving rank {} output chunk {} holds {}, but the postcondition requires {}",
                  callFormName(form), first.rank, first.index, values.describe(w.differing.front().second),
                  values.describe(*targets[w.differing.front().first]));
    std::vector<std::string> evidence = w.witness.outcome;
    evidence.push_back(
        fmt::format("witness: a schedule of {} events ({}); {}", w.witness.schedule.size(), q.name, w.witness.replay));
    const base::TextLocation where = steps.empty() ? index.algorithm().where : steps.front().where;
    findings_.error(q.check, q.rule, where, std::move(message), std::move(steps), std::move(evidence));
  }

  void downgrade(verify::CheckStatus& status, const std::string& why) {
    if (status == verify::CheckStatus::Failed) return;
    status = verify::CheckStatus::Inconclusive;
    std::string& reason = &status == &result_.races ? unknownRaces_ : unknownPostcondition_;
    if (reason.empty()) reason = "no answer for " + why;
  }

  const DataCheckInput& input_;
  ccforge::smt::QueryRunner& runner_;
  verify::Findings& findings_;
  SmtDataResult result_;
  std::string unknownRaces_, unknownPostcondition_;
};

}  // namespace

SmtDataResult checkDataSmt(const DataCheckInput& input, ccforge::smt::QueryRunner& runner, verify::Findings& findings) {
  return DataChecker(input, runner, findings).run();
}

}  // namespace ccforge::verify::smt
