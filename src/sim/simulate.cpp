#include "semantics/step_kinds.hpp"
#include "sim/simulate.hpp"

#include <algorithm>

#include "base/input_error.hpp"
#include "semantics/loaded_program.hpp"
#include "semantics/runtime_profile.hpp"

namespace ccforge::sim {
namespace {

std::string gpuName(const topo::Topology& t, int32_t rank) {
  return t.vertices()[static_cast<size_t>(t.gpus()[static_cast<size_t>(rank)])].name;
}

// The program must load (it is the form every engine runs) and fit the topology: every
// connection needs a route, and each side of a connection one thread block.
std::vector<topo::Route> routesOf(const semantics::LoadedProgram& p, const std::string& source,
                                  const topo::Topology& t) {
  const ir::Algorithm& a = p.algorithm();
  if (p.ranks() > static_cast<int32_t>(t.gpus().size()))
    throw base::InputError(source, a.where,
                           "the algorithm has " + std::to_string(p.ranks()) + " ranks but topology " + t.name +
                               " has only " + std::to_string(t.gpus().size()) + " GPUs");
  std::vector<topo::Route> routes;
  for (const semantics::LoadedConnection& c : p.connections()) {
    if (!c.extraSendTbs.empty() || !c.extraRecvTbs.empty())
      throw SimulationViolation("two thread blocks of rank " +
                                std::to_string(c.extraSendTbs.empty() ? c.receiver : c.sender) +
                                (c.extraSendTbs.empty() ? " receive" : " send") + " on connection " + c.describe());
    auto route = topo::simulatorRoute(t, c.sender, c.receiver);
    if (!route) {
      const int32_t tb = c.sendTb >= 0 ? c.sendTb : c.recvTb;
      throw base::InputError(source, p.threadBlock(tb).where,
                             "connection rank " + std::to_string(c.sender) + " -> rank " + std::to_string(c.receiver) +
                                 " (" + gpuName(t, c.sender) + " -> " + gpuName(t, c.receiver) +
                                 ") has no route in topology " + t.name +
                                 ": neither a direct link nor a path through switches" +
                                 (t.gpuRelay ? ", NICs or relaying GPUs" : " or NICs") +
                                 (t.hostPath ? "" : ", and the spec has no host_path"));
    }
    routes.push_back(*route);
  }
  return routes;
}

}  // namespace

SimulationReport simulate(const ir::Algorithm& algorithm, const std::string& source, const topo::Topology& topology,
                          const SimulationOptions& options) {
  const semantics::LoadResult load = semantics::loadProgram(algorithm);
  if (!load.program) throw base::InputError(source, load.issues.front().where, load.issues.front().message);
  ModelParameters parameters = modelParameters(topology, options.arch);
  if (options.specLinkRates) parameters = atSpecLinkRates(parameters);
  const CostModel model(algorithm.proto, parameters);
  ProgramRun run(*load.program, topology, model, routesOf(*load.program, source, topology));

  SimulationReport report;
  // An alltoallv file is timed as nccl-tests times alltoall.
  const std::optional<semantics::CollectiveType> kind = algorithm.coll == ir::CollectiveKind::AllToAllV
                                                            ? semantics::CollectiveType::AllToAll
                                                            : semantics::collectiveTypeOf(algorithm.coll);
  report.busbwFactor = kind ? busBandwidthFactor(*kind, algorithm.ngpus) : 1;
  for (uint64_t bytes : options.sizes) {
    RunResult r = run.run(bytes, options.eventLimit);
    SizeResult s;
    s.bytes = bytes;
    s.timeUs = r.timeUs;
    s.algbwGBps = static_cast<double>(bytes) / (r.timeUs * 1e-6) / 1e9;
    s.busbwGBps = s.algbwGBps * report.busbwFactor;
    s.inSizeWindow = semantics::sizeWindowOf(algorithm).contains(bytes);
    s.iterations = r.iterations;
    s.transfers = r.transfers;
    if (!r.rankFinishUs.empty())
      s.rankSkewUs = *std::max_element(r.rankFinishUs.begin(), r.rankFinishUs.end()) -
                     *std::min_element(r.rankFinishUs.begin(), r.rankFinishUs.end());
    report.results.push_back(s);
  }
  return report;
}

}  // namespace ccforge::sim
