// Physical invariants of the performance model (issue 24): no prediction ccforge makes (NCCL's
// choice and every option NCCL weighs, tune's simulated candidates and their extrapolation, plan's
// cost tables) is faster than the exact bound of its topology and collective (synth/bounds). Over
// the catalog, the machines of the nccl-tests fixtures, machines imported from the topology-dump
// fixtures (one box, two boxes on rails, switch and Clos) and seeded random specs.
//
// A program may also move data over the host path (a GPU pair without NVLink, through host
// memory), which the bounds leave out by design (docs/bounds.md); on a spec with a host path only
// the NCCL model, whose rings and trees keep to the graph's links there, is held to the bound.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/input_error.hpp"
#include "ir/names.hpp"
#include "plan/simulated_cost.hpp"
#include "rng.hpp"
#include "sim/nccl_model.hpp"
#include "support/nccl_tests_logs.hpp"
#include "synth/bounds/bounds.hpp"
#include "topology/catalog.hpp"
#include "topology/machine_import.hpp"
#include "topology/spec_reader.hpp"
#include "tune/candidates.hpp"
#include "tune/tuning.hpp"

using namespace ccforge;

namespace {

constexpr semantics::CollectiveType kCollectives[] = {
    semantics::CollectiveType::AllReduce, semantics::CollectiveType::AllGather,
    semantics::CollectiveType::ReduceScatter, semantics::CollectiveType::AllToAll};

// The largest algbw (GB/s, nccl-tests' size over the time) the topology allows for the collective;
// nullopt where the bound is past its work limit. Allreduce: reducescatter + allgather, or the
// in-switch reduction where the switches reduce, whichever allows more.
std::optional<double> algbwBound(const topo::Topology& t, semantics::CollectiveType c) {
  try {
    double bound = topo::toDouble(synth::collectiveBound(t, c).algbwUpperBoundGBps);
    if (c == semantics::CollectiveType::AllReduce)
      if (const std::optional<synth::CollectiveBound> s = synth::inSwitchAllReduceBound(t))
        bound = std::max(bound, topo::toDouble(s->algbwUpperBoundGBps));
    return bound;
  } catch (const synth::BoundsLimit&) {
    return std::nullopt;
  }
}

// Fails the test where `timeUs` for `bytes` beats the bound (a relative 1e-9 for rounding).
void checkAgainstBound(double algbwBoundGBps, uint64_t bytes, double timeUs, const std::string& what) {
  const double fastestUs = static_cast<double>(bytes) / (algbwBoundGBps * 1e3);
  INFO(what << " at " << bytes << " B: " << timeUs << " us, the bound allows " << fastestUs << " us (algbw "
            << algbwBoundGBps << " GB/s)");
  CHECK(std::isfinite(timeUs));
  CHECK(timeUs >= fastestUs * (1 - 1e-9));
}

struct Machine {
  std::string name;
  topo::Topology topology;
};

void checkNcclModel(const Machine& m) {
  const sim::NcclSetup setup = sim::ncclSetup(m.topology, sim::modelParameters(m.topology));
  for (semantics::CollectiveType c : kCollectives) {
    const std::optional<double> bound = algbwBound(m.topology, c);
    if (!bound) continue;
    for (uint64_t bytes = 1024; bytes <= (uint64_t{8} << 30); bytes *= 8)
      for (const sim::NcclChoice& o : sim::ncclOptions(setup, {c, bytes, 1}))
        checkAgainstBound(*bound, bytes, o.timeUs,
                          m.name + ": NCCL " + std::string(collectiveTypeName(c)) + " " + o.algorithm + "/" +
                              std::string(ir::protocolName(o.protocol)));
  }
}

tune::TuneOptions tuneOptions(const topo::Topology& t) {
  tune::TuneOptions o;
  o.arch = sim::archOf(t);
  return o;
}

// tune's predictions: every library candidate simulated (and extrapolated past 64 MiB) and
// NCCL's, 1 KiB to 4 GiB.
void checkTune(const Machine& m) {
  for (semantics::CollectiveType c : kCollectives) {
    const std::optional<double> bound = algbwBound(m.topology, c);
    if (!bound) continue;
    tune::CandidateSet set = tune::gatherCandidates(
        m.topology, c, {.library = true, .synthesize = false, .synthesisSeconds = 0, .userFiles = {}});
    const tune::CollectiveTuning t = tune::tuneCollective(m.topology, c, std::move(set), tuneOptions(m.topology));
    for (size_t s = 0; s < t.sizes.size(); ++s) {
      checkAgainstBound(*bound, t.sizes[s], t.nccl[s].timeUs,
                        m.name + ": tune's NCCL " + std::string(collectiveTypeName(c)));
      for (size_t k = 0; k < t.evaluations.size(); ++k)
        if (t.evaluations[k].timeUs[s])
          checkAgainstBound(*bound, t.sizes[s], *t.evaluations[k].timeUs[s],
                            m.name + ": tune's " + t.set.candidates[k].name);
    }
  }
}

// plan's cost tables: each library allreduce in each protocol, 1 KiB to 256 MiB.
void checkPlan(const Machine& m) {
  const std::optional<double> bound = algbwBound(m.topology, semantics::CollectiveType::AllReduce);
  REQUIRE(bound);
  plan::SimulatedCostOptions options;
  options.maxBytes = uint64_t{256} << 20;
  const plan::CommCost cost = plan::simulatedCost(m.topology, options, nullptr);
  for (const plan::AlgorithmCurve& curve : cost.curves())
    for (const auto& [bytes, us] : curve.table) checkAgainstBound(*bound, bytes, us, m.name + ": plan's " + curve.name);
}

std::vector<Machine> catalogMachines() {
  std::vector<Machine> out;
  for (const topo::CatalogEntry& e : topo::catalogEntries())
    out.push_back({std::string(e.name), topo::loadTopology(e.name)});
  return out;
}

std::vector<Machine> fixtureMachines() {
  std::vector<Machine> out;
  for (const auto& f : std::filesystem::directory_iterator(test::kLogsDirectory + "/machines"))
    out.push_back({f.path().filename().string(), topo::loadTopology(f.path().string())});
  return out;
}

// Every topology-dump fixture as one box, and those with NIC speeds as two boxes on each fabric.
std::vector<Machine> importedMachines() {
  std::vector<std::filesystem::path> dumps;
  for (const auto& f : std::filesystem::directory_iterator(std::string(CCFORGE_FIXTURES) + "/topology-dumps"))
    if (f.path().extension() != ".md") dumps.push_back(f.path());
  std::sort(dumps.begin(), dumps.end());
  std::vector<Machine> out;
  for (const std::filesystem::path& dump : dumps) {
    // The directory also holds what import refuses (README.md there: a partial dump its poster cut
    // off, a skeleton without GPUs); those are no machine.
    topo::ImportedBox box;
    try {
      box = topo::readMachineFile(dump);
    } catch (const base::InputError&) {
      continue;
    }
    topo::ImportOptions one;
    if (box.gpus.front().sm < 0) one.sm = 80;  // nvidia-smi output names no generation
    if (box.gpus.size() > 1)                   // a one-GPU box has no collective of its own
      out.push_back({dump.filename().string(),
                     topo::readTopology(topo::buildImportedSpec({box}, one).specJson, dump.string(), ".")});
    // Two boxes need NIC speeds, which only NCCL's dumps give (nvidia-smi's matrix has none).
    if (box.nics.empty() || box.nics.front().speedMbps <= 0) continue;
    for (topo::Fabric fabric : {topo::Fabric::Rail, topo::Fabric::Switch, topo::Fabric::Clos}) {
      topo::ImportOptions two = one;
      two.boxes = 2;
      two.fabric = fabric;
      out.push_back({dump.filename().string() + " x2 " + std::to_string(static_cast<int>(fabric)),
                     topo::readTopology(topo::buildImportedSpec({box}, two).specJson, dump.string(), ".")});
    }
  }
  REQUIRE(out.size() >= 10);
  return out;
}

// A random machine: 1-3 boxes of 2-8 GPUs on a switch, a ring or fully connected, NVLink or PCIe, of a
// random generation, joined by a switch, rails or Clos, with or without PXN and a spine.
nlohmann::json randomSpec(property::Rng& rng, int32_t index) {
  const int32_t gpus = rng.between(2, 8);
  const int32_t sm = std::vector<int32_t>{70, 80, 89, 90, 100}[static_cast<size_t>(rng.below(5))];
  const std::string kind =
      std::vector<std::string>{"switch", "ring", "fully_connected"}[static_cast<size_t>(rng.below(3))];
  nlohmann::json box = {{"name", "box"},
                        {"sm", sm},
                        {"unit_GBps", rng.between(8, 50)},
                        {"link_class", rng.chance(25) ? "pcie" : "nvlink"},
                        {"family", {{"kind", kind}, {"n", gpus}, {"bw", rng.between(1, 9)}}}};
  if (kind == "switch" && sm >= 90) box["nvls"] = rng.chance(50);
  if (box["link_class"] == "pcie" && rng.chance(50)) box["p2p"] = false;
  const int32_t boxes = rng.between(1, 3);
  if (boxes == 1) return box;
  std::vector<int32_t> divisors;
  for (int32_t d = 1; d <= gpus; ++d)
    if (gpus % d == 0) divisors.push_back(d);
  const int32_t gpusPerNic = divisors[static_cast<size_t>(rng.below(divisors.size()))];
  const int32_t nics = gpus / gpusPerNic;
  nlohmann::json network = {{"bw", 1}, {"alpha_us", rng.between(0, 5)}, {"link_class", "network"}};
  switch (rng.below(3)) {
    case 0: network["kind"] = "switch"; break;
    case 1:
      network["kind"] = "rails";
      network["switches"] = rng.between(1, nics);
      if (rng.chance(70)) network["spine_oversubscription"] = rng.between(1, 4);
      break;
    default:
      network["kind"] = "clos";
      network["boxes_per_leaf"] = rng.between(1, boxes);
      network["spine_oversubscription"] = rng.between(1, 4);
  }
  return {{"name", "random-" + std::to_string(index)},
          {"pxn", rng.chance(70)},
          {"unit_GBps", rng.between(3, 50)},
          {"boxes",
           {{"count", boxes},
            {"box", box},
            {"nics", {{"bw", 1}, {"gpus_per_nic", gpusPerNic}, {"link_class", "pcie"}}},
            {"network", network}}}};
}

std::vector<Machine> randomMachines(uint64_t seed, int32_t count) {
  property::Rng rng(seed);
  std::vector<Machine> out;
  for (int32_t i = 0; i < count; ++i) {
    const std::string spec = randomSpec(rng, i).dump();
    INFO(spec);
    out.push_back({spec, topo::readTopology(spec, "random.json", ".")});
  }
  return out;
}

bool small(const Machine& m) { return m.topology.gpus().size() <= 16; }

}  // namespace

TEST_CASE("physical bounds: NCCL's choice and every option it weighs, on the catalog and the fixtures' machines") {
  for (const std::vector<Machine>& machines : {catalogMachines(), fixtureMachines(), importedMachines()})
    for (const Machine& m : machines) checkNcclModel(m);
}

TEST_CASE("physical bounds: NCCL's options on random specs") {
  for (const Machine& m : randomMachines(24, 60)) checkNcclModel(m);
}

// Each machine's tune costs seconds (every library candidate simulated 1 KiB..4 GiB): one box of
// each kind, the rail machines of three generations and NICs, and random specs.
TEST_CASE("physical bounds: tune's simulated library candidates and NCCL, 1 KiB to 4 GiB") {
  for (const char* name : {"a100-1", "h100-1", "mi250-1", "h100-2"}) checkTune({name, topo::loadTopology(name)});
  for (const char* name : {"rtx4090-8-pcie.json", "b200-2.json", "a100-2-efa.json"})
    checkTune({name, topo::loadTopology(test::kLogsDirectory + "/machines/" + name)});
  for (const Machine& m : randomMachines(2400, 4))
    if (small(m) && !m.topology.hostPath) checkTune(m);
}

TEST_CASE("physical bounds: plan's cost tables") {
  for (const char* name : {"a100-1", "h100-1", "h100-2", "mi250-2"}) checkPlan({name, topo::loadTopology(name)});
}
