#include "synth/trees/tree_report.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/json_document.hpp"

namespace ccforge::synth::trees {
namespace {

using nlohmann::ordered_json;

ordered_json point(const TreeOutcome& o) {
  const TreeSynthesis& s = o.synthesis;
  ordered_json p;
  p["method"] = std::string(compositionName(o.composition));
  p["call_form"] = std::string(callFormName(o.form));
  p["chunks"] = s.piecesPerRoot;
  p["steps"] = s.depth;
  p["rounds"] = s.busiestPairPieces;
  p["file"] = o.file.empty() ? ordered_json(nullptr) : ordered_json(o.file);
  deploy::addDeploymentFields(p, o.deployment);
  p["verdict"] = verify::verdictName(o.evaluation.report.verdict);
  p["simulated_bytes"] = o.evaluation.bytes;
  p["simulated_algbw_GBps"] = o.evaluation.simulatedAlgbwGBps;
  p["bound_algbw_GBps"] = topo::toDouble(s.boundAlgbwGBps);
  // The two-step alltoall is no tree packing: no exact rate of trees to give.
  p["trees_algbw_GBps_exact"] =
      o.composition == Composition::TwoStep ? ordered_json(nullptr) : ordered_json(topo::toString(s.packedAlgbwGBps));
  p["fraction_of_bound"] = o.fractionOfBound();
  p["pipeline_rounds"] = s.rounds;
  p["distinct_trees"] = s.distinctTrees;
  p["channels"] = s.channels;
  p["thread_blocks"] = s.compiled.stats.threadBlocks;
  p["max_flows"] = s.maxFlows;
  p["seconds"] = o.seconds;
  return p;
}

std::string_view compositionTitle(Composition c) {
  switch (c) {
    case Composition::Packing: return "tree packing";
    case Composition::Hierarchical: return "hierarchical composition";
    case Composition::Rings: return "ring composition";
    case Composition::RingsSplit: return "ring composition with second entries";
    case Composition::TwoStep: return "two-step alltoall on rails";
  }
  return "tree packing";
}

}  // namespace

std::string treeRunText(const std::string& topology, const std::string& collective,
                        const std::vector<TreeOutcome>& outcomes, bool writing) {
  std::string out;
  for (const TreeOutcome& o : outcomes) {
    const TreeSynthesis& s = o.synthesis;
    // The two-step alltoall is no set of trees: its shape is the chunks per rail pair.
    const bool trees = o.composition != Composition::TwoStep;
    const std::string shape = trees ? fmt::format("{} chunks per root ({} rounds) on {} distinct trees, depth {}",
                                                  s.piecesPerRoot, s.rounds, s.distinctTrees, s.depth)
                                    : fmt::format("{} chunks per rail pair each way, 2 steps", s.busiestPairPieces);
    out += fmt::format(
        "ccforge synth {} {}: {}{}, {} GPUs\n"
        "  {}, {} channels, {} thread blocks, {} steps\n"
        "  bound {} GB/s, {}simulated at {} GiB {:.2f} GB/s ({:.1f}% of the bound)\n"
        "  {}{}\n"
        "  synthesized, compiled, checked by the verifier and simulated in {:.2f} s\n",
        topology, collective, compositionTitle(o.composition),
        o.form == semantics::CallForm::InPlace ? " (in place)" : "", s.ranks, shape, s.channels,
        s.compiled.stats.threadBlocks, s.compiled.stats.steps, topo::toFixed(s.boundAlgbwGBps, 2),
        trees ? "trees " + topo::toFixed(s.packedAlgbwGBps, 2) + " GB/s, " : std::string(), o.evaluation.bytes >> 30,
        o.evaluation.simulatedAlgbwGBps, 100 * o.fractionOfBound(), verify::verdictName(o.evaluation.report.verdict),
        deploy::outcomeText(o.deployment, o.file, writing), o.seconds);
  }
  return out;
}

std::string treeRunJson(const std::string& topology, const std::string& collective,
                        const std::vector<TreeOutcome>& outcomes) {
  ordered_json j;
  j["method"] = "trees";
  j["topology"] = topology;
  j["collective"] = collective;
  j["ranks"] = outcomes.front().synthesis.ranks;
  j["bound_algbw_GBps"] = topo::toDouble(outcomes.front().synthesis.boundAlgbwGBps);
  j["bound_algbw_GBps_exact"] = topo::toString(outcomes.front().synthesis.boundAlgbwGBps);
  const TreeOutcome* best = &outcomes.front();
  j["frontier"] = ordered_json::array();
  j["instances"] = ordered_json::array();
  for (const TreeOutcome& o : outcomes) {
    if (o.evaluation.simulatedAlgbwGBps > best->evaluation.simulatedAlgbwGBps) best = &o;
    j["frontier"].push_back(point(o));
    ordered_json instance = point(o);
    instance["result"] = "packed";
    j["instances"].push_back(instance);
  }
  j["simulated_bytes"] = best->evaluation.bytes;
  j["simulated_algbw_GBps"] = best->evaluation.simulatedAlgbwGBps;
  j["fraction_of_bound"] = best->fractionOfBound();
  j["best"] = std::string(compositionName(best->composition));
  return base::jsonDocument(j);
}

}  // namespace ccforge::synth::trees
