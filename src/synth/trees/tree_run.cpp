#include "synth/trees/tree_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "codegen/compile_error.hpp"
#include "semantics/protocol.hpp"
#include "synth/deploy/nccl_gate.hpp"
#include "synth/trees/box_rings.hpp"
#include "synth/trees/deadline.hpp"
#include "synth/trees/switch_removal.hpp"

namespace ccforge::synth::trees {

std::vector<Composition> compositionsOf(const TreeRunOptions& options, const topo::Topology& topology,
                                        semantics::CollectiveType collective) {
  if (options.composition) return {*options.composition};
  if (collective == semantics::CollectiveType::AllToAll) return {Composition::TwoStep};
  // The packing's switch removal grows quickly with the GPUs (a100-8, 64 GPUs: 100 s for 46% of
  // the bound, against 3 s and 93% hierarchical; docs/benchmarks.md): chosen by default only on
  // machines of few GPUs or a single box.
  std::vector<Composition> out;
  if (topology.boxCount() <= 1 || topology.gpus().size() <= kMaxAutoPackingGpus) out.push_back(Composition::Packing);
  if (topology.boxCount() > 1) out.push_back(Composition::Hierarchical);
  if (collective == semantics::CollectiveType::AllGather && findBoxRings(topology, Deadline(options.timeoutSeconds))) {
    out.push_back(Composition::Rings);
    if (topology.boxCount() > 1) out.push_back(Composition::RingsSplit);
  }
  return out;
}

uint64_t evaluationBytes(Composition c) { return c == Composition::RingsSplit ? uint64_t{4} << 30 : kEvaluationBytes; }

double TreeOutcome::fractionOfBound() const {
  return evaluation.simulatedAlgbwGBps / topo::toDouble(synthesis.boundAlgbwGBps);
}

TreeRun runTreeSynthesis(const topo::Topology& topology, semantics::CollectiveType collective,
                         const TreeRunOptions& options) {
  const std::string& directory = options.outputDirectory;
  const std::vector<Composition> compositions = compositionsOf(options, topology, collective);
  TreeRun run;
  uint64_t curveUpTo = 0;  // every program's cost curve covers every headline size of the run
  for (Composition composition : compositions) curveUpTo = std::max(curveUpTo, evaluationBytes(composition));
  // One time limit for the whole run: every composition, and the phases between them, draw on it.
  const Deadline deadline(options.timeoutSeconds);
  for (Composition composition : compositions) {
    const auto start = std::chrono::steady_clock::now();
    TreeOutcome o;
    o.composition = composition;
    if (options.progress)
      options.progress("synthesizing the " + std::string(compositionName(composition)) + " composition");
    try {
      deadline.check("synthesis");
      o.synthesis = synthesizeTrees(topology, collective,
                                    {.composition = composition,
                                     .protocol = options.protocol,
                                     .deadline = &deadline,
                                     .progress = options.progress});
      deadline.check("verifying and simulating");
    } catch (const codegen::CompileError& e) {
      run.failures.push_back({composition, TreeFailure::Kind::NoSchedule, e.what()});
      continue;
    } catch (const TreeCountLimit& e) {
      run.failures.push_back({composition, TreeFailure::Kind::NoSchedule, e.what()});
      continue;
    } catch (const SynthesisLimit& e) {
      run.failures.push_back({composition, TreeFailure::Kind::TimeLimit, e.what()});
      run.timeLimitReached = true;
      continue;
    }
    // The composition's in-place program, where it has one, is an outcome of its own.
    std::optional<TreeOutcome> inPlace;
    if (o.synthesis.inPlace) {
      inPlace = o;
      inPlace->synthesis.compiled = std::move(*o.synthesis.inPlace);
      inPlace->synthesis.inPlace.reset();
      o.synthesis.inPlace.reset();
    }
    for (TreeOutcome* each : {&o, inPlace ? &*inPlace : nullptr}) {
      if (!each) continue;
      const ir::Algorithm& algorithm = each->synthesis.compiled.algorithm;
      // Read from the file's header: the allreduce compositions run in place as their only form.
      each->form = algorithm.servesOutOfPlace() ? semantics::CallForm::OutOfPlace : semantics::CallForm::InPlace;
      const std::string fileName = algorithm.name + ".xml";
      const std::string source = directory.empty() ? fileName : (std::filesystem::path(directory) / fileName).string();
      if (options.progress) options.progress("verifying and simulating " + fileName);
      each->evaluation = evaluateProgram(algorithm, source, topology, collective, compositions.size() > 1,
                                         evaluationBytes(composition), curveUpTo);
      each->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    run.outcomes.push_back(std::move(o));
    if (inPlace) run.outcomes.push_back(std::move(*inPlace));
  }

  // Only verified programs compete for the directory; they are compared by simulated time.
  std::vector<deploy::DeployCandidate> candidates;
  std::vector<TreeOutcome*> competing;
  for (TreeOutcome& o : run.outcomes) {
    if (o.evaluation.report.verdict != verify::Verdict::Verified) {
      o.deployment.notWritten = "the verifier does not pass it";
      continue;
    }
    competing.push_back(&o);
    const ir::Algorithm& algorithm = o.synthesis.compiled.algorithm;
    // Second entries pipeline over tile iterations: below one the network entries serialize.
    const double from = o.composition == Composition::RingsSplit
                            ? semantics::tileIterationBytes(algorithm.nchunksperloop, algorithm.proto)
                            : 0;
    candidates.push_back({&algorithm,
                          o.evaluation.simulatedCost.value_or(deploy::CostCurve(
                              {{static_cast<double>(o.evaluation.bytes), o.evaluation.simulatedTimeUs}})),
                          from});
  }
  const std::vector<deploy::Deployment> plan = deploy::planDeployment(candidates, semantics::executorProfile());
  for (size_t k = 0; k < competing.size(); ++k) {
    TreeOutcome& o = *competing[k];
    o.deployment = plan[k];
    ir::Algorithm& algorithm = o.synthesis.compiled.algorithm;
    if (options.ncclMargin && o.deployment.window) {
      if (deadline.secondsLeft() <= 0) {
        o.deployment.window.reset();
        o.deployment.notWritten = fmt::format("the time limit of {:g} s was reached before it was weighed against NCCL",
                                              options.timeoutSeconds);
        run.timeLimitReached = true;
        continue;
      }
      if (options.progress) options.progress("weighing " + algorithm.name + " against NCCL");
      deploy::gateOnNccl(o.deployment, algorithm, algorithm.name + ".xml", topology, *options.ncclMargin);
    }
    if (!o.deployment.window) continue;
    deploy::setWindow(algorithm, *o.deployment.window);
    if (!directory.empty()) o.file = deploy::writeProgram(directory, algorithm.name + ".xml", algorithm);
  }
  return run;
}

}  // namespace ccforge::synth::trees
