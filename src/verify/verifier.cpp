#include "verify/verifier.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <new>

#include "base/input_error.hpp"
#include "ir/names.hpp"
#include "verify/collective_resolution.hpp"
#include "verify/connections.hpp"
#include "verify/deadlock.hpp"
#include "verify/directory.hpp"
#include "verify/fused.hpp"
#include "verify/layouts.hpp"
#include "verify/lint.hpp"
#include "verify/postcondition.hpp"
#include "semantics/loaded_program.hpp"
#include "verify/step_ref.hpp"
#include "verify/races.hpp"
#include "verify/rules.hpp"
#include "verify/selection.hpp"
#include "verify/caller_buffers.hpp"
#include "verify/smt/engine.hpp"
#include "verify/step_graph.hpp"

namespace ccforge::verify {
namespace {

namespace fs = std::filesystem;

ProgramSummary summarize(const ir::Algorithm& algo, const std::string& collective) {
  ProgramSummary s;
  s.name = algo.name;
  s.collective = collective;
  s.protocol = std::string(ir::protocolName(algo.proto));
  s.ranks = algo.ngpus;
  s.channels = algo.nchannels;
  s.chunksPerLoop = algo.nchunksperloop;
  for (const ir::Gpu& g : algo.gpus) s.threadBlocks += g.threadBlocks.size();
  s.steps = algo.stepCount();
  for (semantics::CallForm f : callFormsOf(algo)) s.callForms.emplace_back(callFormName(f));
  return s;
}

class FileVerification {
 public:
  FileVerification(const ir::Algorithm& algo, const std::string& source, const Options& options)
      : algo_(algo), options_(options), findings_(source, options, &algo.suppressions) {
    report_.file = source;
    report_.profile = options.profile.name;
  }

  FileReport run(const std::vector<ir::RuntimeParserIssue>& parserIssues) {
    ResolvedCollective resolved = resolveCollective(algo_, options_.collective, options_.customCollective, findings_);
    report_.program = summarize(algo_, resolved.description);
    for (std::string& note : resolved.notes) report_.notes.push_back(std::move(note));
    for (const ir::RuleSuppression& s : algo_.suppressions)
      if (!namesRuleOrGroup(s.rule))
        findings_.error(Check::Format, "format.suppression", s.where,
                        "the suppression comment names no rule or group: '" + s.rule +
                            "' (docs/verify.md, \"Rule reference\"); it suppresses nothing");
    const semantics::LoadResult load = semantics::loadProgram(algo_);
    LintResult lint = verify::lint(load, algo_, parserIssues, resolved.collective, options_, findings_);
    outcome(Check::Format, findings_.hasErrors(Check::Format) ? CheckStatus::Failed : CheckStatus::Passed);
    outcome(Check::Limits, findings_.hasErrors(Check::Limits) ? CheckStatus::Failed : CheckStatus::Passed);
    if (!load.program) {
      skip({Check::Buffers, Check::Connections, Check::Races, Check::Postcondition, Check::Deadlock},
           "the program's structure is broken (see the limits errors), so it has no defined execution");
    } else {
      checkCallerBuffers(*load.program, resolved.collective, findings_);
      outcome(Check::Buffers, statusOf(Check::Buffers));
      semanticChecks(*load.program, lint, resolved);
    }
    findings_.moveInto(report_);
    // A check that did not run proves nothing: without errors, the file is not verified.
    bool inconclusive = std::any_of(report_.checks.begin(), report_.checks.end(), [](const CheckOutcome& c) {
      return c.status == CheckStatus::Inconclusive || c.status == CheckStatus::Skipped;
    });
    bool disagreement = std::any_of(report_.violations.begin(), report_.violations.end(),
                                    [](const Violation& v) { return v.rule == smt::kDisagreementRule; });
    report_.verdict = disagreement                    ? Verdict::InternalError
                      : report_.errorCount() > 0      ? Verdict::Violation
                      : inconclusive                  ? Verdict::Inconclusive
                      : report_.suppressedCount() > 0 ? Verdict::Accepted
                                                      : Verdict::Verified;
    if (disagreement)
      setError(
          report_, report_.file, algo_.where,
          std::string("the engines disagree or an SMT witness does not replay (see ") + smt::kDisagreementRule + ")");
    return std::move(report_);
  }

 private:
  void outcome(Check check, CheckStatus status, std::string note = {}) {
    report_.checks.push_back({check, status, std::move(note)});
  }
  void skip(std::initializer_list<Check> checks, const std::string& why) {
    for (Check c : checks) outcome(c, CheckStatus::Skipped, why);
  }
  CheckStatus statusOf(Check check) const {
    return findings_.hasErrors(check) ? CheckStatus::Failed : CheckStatus::Passed;
  }

  void semanticChecks(const semantics::LoadedProgram& index, const LintResult& lint,
                      const ResolvedCollective& resolved) {
    if (algo_.fused) checkProductPartition(index, findings_);
    bool connectionsSound = checkConnections(index, findings_);
    outcome(Check::Connections, statusOf(Check::Connections));
    if (!connectionsSound) {
      skip({Check::Races, Check::Postcondition, Check::Deadlock},
           "several thread blocks share one side of a connection, so the program has no defined execution");
      return;
    }
    summarizeBoxes(index);
    std::optional<smt::SmtEngine> smt;
    if (options_.engine != Engine::Sim) smt.emplace(index, options_, report_.file);
    const int32_t slots = deadlockCheck(index, smt ? &*smt : nullptr);
    dataChecks(index, slots, lint, resolved, smt ? &*smt : nullptr);
    if (smt) report_.smt = smt->takeSummary();
  }

  void summarizeBoxes(const semantics::LoadedProgram& index) {
    BoxSummary& b = report_.boxes.emplace();
    b.layout = options_.boxes.describe();
    b.layoutKnown = options_.boxes.known();
    b.connections = static_cast<int32_t>(index.connections().size());
    for (const semantics::LoadedConnection& c : index.connections())
      if (!options_.boxes.sameBox(c.sender, c.receiver)) ++b.acrossBoxes;
  }

  // The symbolic checks and the deadlock search walk every chunk each step moves (one transfer
  // per chunk at worst): a file's cnt may be 2^31 - 1. Past the budget they are inconclusive.
  std::optional<std::string> tooManyChunksMoved(const semantics::LoadedProgram& index) const {
    uint64_t moved = 0;
    for (uint32_t st = 0; st < index.stepCount(); ++st) moved += static_cast<uint64_t>(std::max(index.step(st).cnt, 0));
    if (moved <= options_.maxSymbolicCells) return std::nullopt;
    return fmt::format("the steps move {} chunks in all, more than the {} the symbolic checks may use", moved,
                       options_.maxSymbolicCells);
  }

  // Returns the slot count checked.
  int32_t deadlockCheck(const semantics::LoadedProgram& index, smt::SmtEngine* smt) {
    const int32_t slots = options_.slots.value_or(semantics::transfersInFlight(algo_.proto));
    if (const std::optional<std::string> why = tooManyChunksMoved(index)) {
      outcome(Check::Deadlock, CheckStatus::Inconclusive, *why);
      return slots;
    }
    std::optional<DeadlockSummary> summary;
    CheckStatus status = CheckStatus::Passed;
    std::string note;
    if (options_.engine != Engine::Smt) {
      summary = checkDeadlock(index, options_.slots, findings_);
      status = statusOf(Check::Deadlock);
      note = fmt::format("{} configuration(s) with {} slots per connection", summary->configurations.size(),
                         summary->slotsChecked);
    }
    if (smt) {
      std::optional<DeadlockSummary> smtSummary;
      CheckOutcome o = smt->deadlock(slots, findings_, summary ? &*summary : nullptr, smtSummary);
      if (summary) {
        note += "; " + o.note;
      } else {
        status = o.status;
        note = o.note;
        summary = std::move(smtSummary);
      }
    }
    outcome(Check::Deadlock, status, note);
    report_.deadlock = std::move(summary);
    return slots;
  }

  void dataChecks(const semantics::LoadedProgram& index, int32_t slots, const LintResult& lint,
                  const ResolvedCollective& resolved, smt::SmtEngine* smt) {
    std::vector<semantics::CallForm> forms = callFormsOf(algo_);
    if (forms.empty()) {
      skip({Check::Races, Check::Postcondition}, "the algorithm serves no call form");
      return;
    }
    uint64_t cells = 0;
    for (const auto& lengths : lint.bufferLengths)
      for (int32_t n : lengths) cells += static_cast<uint64_t>(std::max(n, 0));
    if (const std::optional<std::string> why = tooManyChunksMoved(index)) {
      outcome(Check::Races, CheckStatus::Inconclusive, *why);
      outcome(Check::Postcondition, CheckStatus::Inconclusive, *why);
      return;
    }
    if (cells > options_.maxSymbolicCells) {
      std::string why = fmt::format("the buffers hold {} chunks in all, more than the {} the symbolic checks may use",
                                    cells, options_.maxSymbolicCells);
      outcome(Check::Races, CheckStatus::Inconclusive, why);
      outcome(Check::Postcondition, CheckStatus::Inconclusive, why);
      return;
    }
    if (options_.engine != Engine::Smt) {
      StepGraph graph(index, {backPressureDistance(algo_.proto, slots), options_.boxes});
      bool producersComplete = true;
      if (algo_.fused) {
        uint64_t budget = options_.raceSearchBudget;
        producersComplete = checkProducers(index, graph, budget, findings_);
      }
      racesCheck(index, graph, forms, lint, resolved, producersComplete);
      postconditionCheck(index, graph, forms, lint, resolved);
    }
    if (!smt) return;
    smt::DataCheckInput input{index, resolved.collective, forms, lint.bufferLengths, slots, options_.boxes};
    if (options_.engine == Engine::Both) {
      CheckOutcome& races = outcomeOf(Check::Races);
      CheckOutcome& postcondition = outcomeOf(Check::Postcondition);
      smt::SmtEngine::DataOutcomes simulation{races, postcondition};
      smt::SmtEngine::DataOutcomes o = smt->data(input, findings_, &simulation);
      races.note = joined(races.note, o.races.note);
      if (resolved.collective) postcondition.note = joined(postcondition.note, o.postcondition.note);
      return;
    }
    smt::SmtEngine::DataOutcomes o = smt->data(input, findings_, nullptr);
    report_.checks.push_back(o.races);
    if (resolved.collective)
      report_.checks.push_back(o.postcondition);
    else
      outcome(Check::Postcondition, CheckStatus::Skipped,
              "no postcondition for coll=\"" + algo_.collName + "\": give --collective");
  }

  static std::string joined(const std::string& a, const std::string& b) { return a.empty() ? b : a + "; " + b; }
  CheckOutcome& outcomeOf(Check check) {
    return *std::find_if(report_.checks.begin(), report_.checks.end(),
                         [&](const CheckOutcome& c) { return c.check == check; });
  }

  void racesCheck(const semantics::LoadedProgram& index, const StepGraph& graph,
                  const std::vector<semantics::CallForm>& forms, const LintResult& lint,
                  const ResolvedCollective& resolved, bool producersComplete) {
    for (int32_t r = 0; r < index.ranks(); ++r) {
      const auto tbs = static_cast<uint64_t>(index.threadBlocksOfRank(r));
      if (tbs * tbs > options_.maxRaceClockEntries) {
        outcome(Check::Races, CheckStatus::Inconclusive,
                fmt::format("rank {} has {} thread blocks: the race check's vector clocks would take {} entries, more "
                            "than the {} it may use",
                            r, tbs, tbs * tbs, options_.maxRaceClockEntries));
        return;
      }
    }
    uint64_t budget = options_.raceSearchBudget;
    bool complete = producersComplete;
    for (semantics::CallForm form : forms)
      complete =
          checkRaces(index, graph, form, rankLayouts(resolved.collective, form, lint.bufferLengths), budget, findings_)
              .complete &&
          complete;
    std::string note;
    if (!graph.allRun())
      note = fmt::format("{} of {} steps never run (deadlock); they are not checked",
                         index.stepCount() - graph.order().size(), index.stepCount());
    if (!complete && !findings_.hasErrors(Check::Races))
      outcome(Check::Races, CheckStatus::Inconclusive,
              "the happens-before search exceeded its budget before every pair was decided");
    else
      outcome(Check::Races, statusOf(Check::Races), note);
  }

  void postconditionCheck(const semantics::LoadedProgram& index, const StepGraph& graph,
                          const std::vector<semantics::CallForm>& forms, const LintResult& lint,
                          const ResolvedCollective& resolved) {
    if (!resolved.collective) {
      outcome(Check::Postcondition, CheckStatus::Skipped,
              "no postcondition for coll=\"" + algo_.collName + "\": give --collective");
      return;
    }
    // The data a program computes does not depend on slot counts: if it only deadlocks for lack
    // of slots, evaluate it with unbounded FIFOs.
    std::unique_ptr<StepGraph> unbounded;
    const StepGraph* dataOrder = &graph;
    if (!graph.allRun()) {
      unbounded = std::make_unique<StepGraph>(index, BackPressure{});
      dataOrder = unbounded.get();
    }
    for (semantics::CallForm form : forms)
      checkPostcondition(index, *dataOrder, *resolved.collective, form,
                         rankLayouts(resolved.collective, form, lint.bufferLengths), findings_);
    std::string note = resolved.collective->describe();
    if (!dataOrder->allRun())
      note += fmt::format("; {} steps never run even with unbounded FIFOs, so their outputs are missing",
                          index.stepCount() - dataOrder->order().size());
    else if (unbounded)
      note += "; evaluated with unbounded FIFOs because the program deadlocks with the runtime's slots";
    outcome(Check::Postcondition, statusOf(Check::Postcondition), note);
  }

  const ir::Algorithm& algo_;
  const Options& options_;
  Findings findings_;
  FileReport report_;
};

FileReport failure(const std::string& file, Verdict verdict, std::string message, base::TextLocation where = {},
                   const std::string& errorFile = {}) {
  FileReport r;
  r.file = file;
  r.verdict = verdict;
  setError(r, errorFile.empty() ? file : errorFile, where, std::move(message));
  return r;
}

FileReport failure(const std::string& file, Verdict verdict, const base::InputError& e) {
  return failure(file, verdict, e.message(), e.where(), e.file());
}

FileReport checkAgainstProfile(const ir::Algorithm& algo, const std::string& source, const Options& options,
                               const std::vector<ir::RuntimeParserIssue>& parserIssues) {
  FileReport r;
  try {
    return FileVerification(algo, source, options).run(parserIssues);
  } catch (const base::InputError& e) {
    r = failure(source, Verdict::Malformed, e);
  } catch (const std::bad_alloc&) {
    r = failure(source, Verdict::InternalError, "out of memory while checking");
  } catch (const std::exception& e) {
    r = failure(source, Verdict::InternalError, std::string("internal error: ") + e.what());
  }
  r.profile = options.profile.name;
  return r;
}

}  // namespace

FileReport verifyAlgorithm(const ir::Algorithm& algo, const std::string& source, const Options& givenOptions,
                           const std::vector<ir::RuntimeParserIssue>& parserIssues) {
  // The SMT encodings do not model compute steps: the simulation engine decides fused programs.
  Options simOnly = givenOptions;
  const bool smtRefused = algo.fused && givenOptions.engine != Engine::Sim;
  if (smtRefused) simOnly.engine = Engine::Sim;
  const Options& options = simOnly;
  auto noteEngine = [&](FileReport r) {
    if (smtRefused)
      r.notes.push_back(
          "fused program: the SMT engine does not model compute steps, so the simulation engine decided "
          "every check");
    return r;
  };
  if (!options.profileFromHeader) return noteEngine(checkAgainstProfile(algo, source, options, parserIssues));
  Options fromHeader = options;
  fromHeader.profileFromHeader = false;
  fromHeader.profile = semantics::profileForHeader(algo);
  FileReport r = checkAgainstProfile(algo, source, fromHeader, parserIssues);
  r.notes.insert(r.notes.begin(),
                 fmt::format("profile {} from the header ({}); --profile chooses another", fromHeader.profile.name,
                             algo.fused ? "a fused program: coll=\"" + algo.collName + "\""
                             : algo.headerStyle() == ir::HeaderStyle::Executor
                                 ? std::string("an executor header: outofplace, minBytes, maxBytes")
                                 : std::string("a legacy header: no outofplace, minBytes or maxBytes")));
  return noteEngine(std::move(r));
}

namespace {

struct ReadFile {
  std::string path;
  std::optional<ir::ReadResult> read;
  FileReport report;
};

ReadFile readAndVerify(const std::string& path, const Options& options, size_t index = 0, size_t total = 1) {
  if (options.progress)
    options.progress(total > 1 ? fmt::format("verifying {} ({} of {})", path, index + 1, total) : "verifying " + path);
  ReadFile f{path, std::nullopt, {}};
  try {
    f.read = ir::readAlgorithmFile(path, options.maxInputBytes, options.profile.lexical);
  } catch (const base::InputError& e) {
    f.report = failure(path, Verdict::Malformed, e);
    return f;
  } catch (const std::bad_alloc&) {
    f.report = failure(path, Verdict::InternalError, "out of memory while reading");
    return f;
  }
  f.report = verifyAlgorithm(f.read->algorithm, path, options, f.read->runtimeParserIssues);
  f.read->algorithm.gpus = {};  // the directory's selection check needs only the header
  return f;
}

// A directory is loaded by one runtime: msccl-executor when any of its files is written for it.
const semantics::RuntimeProfile& directoryProfile(const std::vector<ReadFile>& files) {
  for (const ReadFile& f : files)
    if (f.read && semantics::profileForHeader(f.read->algorithm).name == semantics::executorProfile().name)
      return semantics::executorProfile();
  return semantics::legacyProfile();
}

}  // namespace

FileReport verifyFile(const fs::path& path, const Options& options) {
  return readAndVerify(path.string(), options).report;
}

std::vector<FileReport> verifyPaths(const std::vector<std::string>& paths, const Options& options) {
  std::vector<FileReport> reports;
  for (size_t p = 0; p < paths.size(); ++p) {
    const std::string& path = paths[p];
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
      reports.push_back(readAndVerify(path, options, p, paths.size()).report);
      continue;
    }
    const std::vector<DirectoryEntry> entries = listAlgorithmDirectory(path, ec);
    if (ec) {
      reports.push_back(failure(path, Verdict::Malformed, "cannot read directory: " + ec.message()));
      continue;
    }
    if (entries.empty()) {
      reports.push_back(
          failure(path, Verdict::Malformed, "directory holds no algorithm files (regular files or symbolic links)"));
      continue;
    }
    std::vector<ReadFile> loaded;
    loaded.reserve(entries.size());
    for (size_t k = 0; k < entries.size(); ++k)
      if (!entries[k].stray) loaded.push_back(readAndVerify(entries[k].path, options, k, entries.size()));
    Options directoryOptions = options;
    if (options.profileFromHeader) directoryOptions.profile = directoryProfile(loaded);
    std::vector<FileReport> stray;
    std::vector<bool> isStray;
    for (size_t k = 0; k < entries.size(); ++k) {
      isStray.push_back(entries[k].stray.has_value());
      if (entries[k].stray)
        stray.push_back(strayFileReport(entries[k].path, *entries[k].stray, entries.size() - k - 1, directoryOptions));
    }
    std::vector<LoadedAlgorithm> selection;
    for (ReadFile& f : loaded)
      selection.push_back({f.read && f.report.program ? &f.read->algorithm : nullptr, &f.report});
    if (options.progress) options.progress("checking which file each call selects in " + path);
    checkSelection(selection, directoryOptions);
    size_t nextLoaded = 0, nextStray = 0;
    for (bool s : isStray)
      reports.push_back(s ? std::move(stray[nextStray++]) : std::move(loaded[nextLoaded++].report));
  }
  return reports;
}

}  // namespace ccforge::verify
