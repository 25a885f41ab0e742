#include "synth/sccl/frontier_files.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "synth/deploy/nccl_gate.hpp"

namespace ccforge::synth::sccl {

std::vector<semantics::CallForm> callFormsOf(semantics::CollectiveType collective) {
  switch (collective) {
    case semantics::CollectiveType::AllGather:
    case semantics::CollectiveType::ReduceScatter:
    case semantics::CollectiveType::AllReduce: return {semantics::CallForm::OutOfPlace, semantics::CallForm::InPlace};
    default: return {semantics::CallForm::OutOfPlace};
  }
}

std::vector<FrontierPoint> frontierFiles(Synthesizer& synthesizer, const std::vector<InstanceResult>& frontier,
                                         const CostModel& cost, const FrontierFilesOptions& options) {
  std::vector<FrontierPoint> points;
  std::vector<CostPoint> costPoints;
  std::vector<std::string> fileNames;
  std::vector<size_t> instanceOf;  // per point, its instance's index in `frontier`
  for (const InstanceResult& r : frontier) {
    const auto [num, den] = roundsPerChunk(synthesizer.collective(), synthesizer.ranks(), r.chunks, r.rounds);
    costPoints.push_back({r.steps, topo::Rational(num, den)});
    for (const semantics::CallForm form : callFormsOf(synthesizer.collective())) {
      FrontierPoint p;
      p.instance = r;
      p.form = form;
      p.roundsPerChunk = costPoints.back().roundsPerChunk;
      const std::string suffix = fmt::format("-c{}-s{}-r{}{}", r.chunks, r.steps, r.rounds,
                                             form == semantics::CallForm::InPlace ? "-inplace" : "");
      const std::string name = options.programPrefix + suffix;
      const std::string fileName = options.filePrefix + suffix + ".xml";
      const std::string source = options.outputDirectory.empty()
                                     ? name + ".xml"
                                     : (std::filesystem::path(options.outputDirectory) / fileName).string();
      p.emitted =
          r.allgatherPhase
              ? emitVerifiedAllReduce(synthesizer.problem(r.chunks, semantics::CollectiveType::ReduceScatter),
                                      *r.schedule, synthesizer.problem(r.chunks, semantics::CollectiveType::AllGather),
                                      *r.allgatherPhase, name, options.protocol, source, form)
              : emitVerified(synthesizer.problem(r.chunks), *r.schedule, name, options.protocol, source, form);
      fileNames.push_back(fileName);
      points.push_back(std::move(p));
      instanceOf.push_back(costPoints.size() - 1);
    }
  }
  const std::vector<std::optional<deploy::SizeRange>> cheapest = sizeWindows(cost, costPoints);

  std::vector<deploy::DeployCandidate> candidates;
  std::vector<size_t> verified;  // the points that are candidates
  for (size_t i = 0; i < points.size(); ++i) {
    points[i].cheapest = cheapest[instanceOf[i]];
    if (!points[i].emitted.verified()) {
      points[i].deployment.notWritten = "it did not compile and verify";
      continue;
    }
    verified.push_back(i);
    candidates.push_back({&points[i].emitted.algorithm, costCurve(cost, costPoints[instanceOf[i]])});
  }
  const std::vector<deploy::Deployment> plan = deploy::planDeployment(candidates, semantics::executorProfile());
  for (size_t k = 0; k < verified.size(); ++k) {
    FrontierPoint& p = points[verified[k]];
    p.deployment = plan[k];
    if (options.ncclMargin)
      deploy::gateOnNccl(p.deployment, p.emitted.algorithm, fileNames[verified[k]], synthesizer.topology(),
                         *options.ncclMargin);
    if (!p.deployment.window) continue;
    deploy::setWindow(p.emitted.algorithm, *p.deployment.window);
    if (!options.outputDirectory.empty())
      p.file = deploy::writeProgram(options.outputDirectory, fileNames[verified[k]], p.emitted.algorithm);
  }
  return points;
}

}  // namespace ccforge::synth::sccl
