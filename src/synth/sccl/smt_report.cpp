#include "synth/sccl/smt_report.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/byte_size.hpp"
#include "base/json_document.hpp"

namespace ccforge::synth::sccl {
namespace {

using nlohmann::ordered_json;

std::string windowText(const std::optional<deploy::SizeRange>& w) {
  if (!w) return "never the cheapest";
  const auto bytes = [](double b) { return base::approximateByteSize(b); };
  if (!w->high) return w->low == 0 ? "cheapest at every size" : "cheapest for M >= " + bytes(w->low);
  if (w->low == 0) return "cheapest for M < " + bytes(*w->high);
  return "cheapest for " + bytes(w->low) + " <= M < " + bytes(*w->high);
}

struct Counts {
  int sat = 0, unsat = 0, unknown = 0, pruned = 0;
  double seconds = 0;
};
Counts count(const std::vector<InstanceResult>& history) {
  Counts c;
  for (const auto& r : history) {
    c.seconds += r.seconds;
    (r.verdict == Verdict::Sat       ? c.sat
     : r.verdict == Verdict::Unsat   ? c.unsat
     : r.verdict == Verdict::Unknown ? c.unknown
                                     : c.pruned)++;
  }
  return c;
}

}  // namespace

std::string instanceName(int32_t chunks, int32_t steps, int32_t rounds) {
  return fmt::format("({},{},{})", chunks, steps, rounds);
}

std::string smtRunText(const std::string& topology, const std::string& collective, const std::string& solver,
                       const SmtRun& run, bool writing) {
  std::string out = fmt::format("synth {} {}: {} GPUs; bounds: steps >= {}, rounds per chunk >= {}; solver {}\n",
                                topology, collective, run.ranks, run.bound.stepsLowerBound,
                                topo::toString(run.bound.roundsPerChunkLowerBound), solver);
  out += fmt::format("cost T = S*alpha + (R/C)*m*beta, m = M/{:.0f}, alpha {} us, beta {:.6g} us/byte\n",
                     run.cost.bytesPerChunkUnit, run.cost.alphaUs, run.cost.betaUsPerByte);
  if (run.points.empty()) out += "no schedule found\n";
  for (const FrontierPoint& p : run.points) {
    const std::string substitute =
        p.instance.substituteFor.empty() ? "" : "  (power-of-two C for " + p.instance.substituteFor + ")";
    out += fmt::format(
        "(C,S,R) = {}  R/C {}{}  {}  {}: {}\n", instanceName(p.instance.chunks, p.instance.steps, p.instance.rounds),
        topo::toString(p.roundsPerChunk), substitute, windowText(p.cheapest), callFormName(p.form),
        (p.emitted.verified() ? "verified" : "not verified") + deploy::outcomeText(p.deployment, p.file, writing));
  }
  const Counts c = count(run.history);
  out += fmt::format("instances: {} (sat {}, unsat {}, unknown {}, pruned {}), solver time {:.2f} s\n",
                     run.history.size(), c.sat, c.unsat, c.unknown, c.pruned, c.seconds);
  if (!run.result.complete) out += "incomplete: " + run.result.note + "\n";
  return out;
}

std::string smtRunJson(const std::string& topology, const std::string& solver, const SmtRun& run) {
  ordered_json j;
  j["topology"] = topology;
  j["collective"] = std::string(collectiveTypeName(run.collective));
  j["method"] = "smt";
  j["solver"] = solver;
  j["bound"] = {{"steps", run.bound.stepsLowerBound},
                {"rounds_per_chunk", topo::toString(run.bound.roundsPerChunkLowerBound)}};
  ordered_json frontier = ordered_json::array();
  for (const FrontierPoint& p : run.points) {
    ordered_json e{{"chunks", p.instance.chunks},
                   {"steps", p.instance.steps},
                   {"rounds", p.instance.rounds},
                   {"rounds_per_chunk", topo::toString(p.roundsPerChunk)},
                   {"form", std::string(callFormName(p.form))}};
    if (!p.instance.substituteFor.empty()) e["substitute_for"] = p.instance.substituteFor;
    e["file"] = p.file.empty() ? ordered_json(nullptr) : ordered_json(p.file);
    e["verified"] = p.emitted.verified();
    if (p.cheapest) {
      e["cheapest_from_bytes"] = p.cheapest->low;
      e["cheapest_below_bytes"] = p.cheapest->high ? ordered_json(*p.cheapest->high) : ordered_json(nullptr);
    }
    deploy::addDeploymentFields(e, p.deployment);
    frontier.push_back(e);
  }
  j["frontier"] = frontier;
  ordered_json instances = ordered_json::array();
  for (const InstanceResult& r : run.history) {
    ordered_json e{{"chunks", r.chunks},
                   {"steps", r.steps},
                   {"rounds", r.rounds},
                   {"result", std::string(verdictName(r.verdict))},
                   {"seconds", r.seconds}};
    if (!r.note.empty()) e["note"] = r.note;
    instances.push_back(e);
  }
  j["instances"] = instances;
  j["complete"] = run.result.complete;
  if (!run.result.note.empty()) j["note"] = run.result.note;
  return base::jsonDocument(j);
}

}  // namespace ccforge::synth::sccl
