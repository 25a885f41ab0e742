#include "tune/candidates.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <filesystem>

#include "driver/compile_and_verify.hpp"
#include "driver/machine_boxes.hpp"
#include "ir/names.hpp"
#include "ir/reader.hpp"
#include "library.hpp"
#include "sim/nccl_machine.hpp"
#include "sim/nccl_rings.hpp"
#include "synth/trees/tree_run.hpp"
#include "synth/trees/tree_synthesis.hpp"
#include "verify/verifier.hpp"

namespace ccforge::tune {
namespace {

struct LibrarySpec {
  std::string algorithm;
  std::vector<std::string> settings;
  std::string id;
};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool powerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// The library algorithms tried for a collective: every one that takes the topology's shape,
// with instance counts that keep nchunksperloop a power of two where the rank count is one.
std::vector<LibrarySpec> librarySpecs(semantics::CollectiveType c, int32_t ranks, int32_t boxes) {
  const int32_t gpus = ranks / std::max(boxes, 1);
  const std::string r = fmt::format("ranks={}", ranks);
  std::vector<LibrarySpec> out;
  auto withForms = [&](const std::string& algorithm, const std::vector<std::string>& settings, const std::string& id) {
    for (int inplace : {1, 0}) {
      std::vector<std::string> s = settings;
      s.push_back(fmt::format("inplace={}", inplace));
      out.push_back({algorithm, s, id + (inplace ? "-ip" : "-oop")});
    }
  };
  switch (c) {
    case semantics::CollectiveType::AllReduce:
      for (int i : {1, 4, 8})
        withForms("ring-allreduce", {r, fmt::format("instances={}", i)}, fmt::format("ring-allreduce-i{}", i));
      withForms("allpairs-allreduce", {r}, "allpairs-allreduce");
      if (powerOfTwo(ranks)) out.push_back({"recursive-halving-doubling-allreduce", {r}, "rhd-allreduce"});
      if (boxes > 1)
        for (int i : {1, 4})
          out.push_back({"hierarchical-allreduce",
                         {fmt::format("nodes={}", boxes), fmt::format("gpus={}", gpus), fmt::format("instances={}", i)},
                         fmt::format("hierarchical-allreduce-i{}", i)});
      break;
    case semantics::CollectiveType::AllGather:
      for (int i : {1, 4, 8})
        withForms("ring-allgather", {r, fmt::format("instances={}", i)}, fmt::format("ring-allgather-i{}", i));
      withForms("allpairs-allgather", {r}, "allpairs-allgather");
      if (powerOfTwo(ranks)) withForms("recursive-doubling-allgather", {r}, "rd-allgather");
      break;
    case semantics::CollectiveType::ReduceScatter:
      for (int i : {1, 4, 8})
        withForms("ring-reducescatter", {r, fmt::format("instances={}", i)}, fmt::format("ring-reducescatter-i{}", i));
      break;
    case semantics::CollectiveType::AllToAll:
      for (int i : {1, 4})
        out.push_back(
            {"allpairs-alltoall", {r, fmt::format("instances={}", i)}, fmt::format("allpairs-alltoall-i{}", i)});
      if (boxes > 1) {
        const std::vector<std::string> shape{fmt::format("nodes={}", boxes), fmt::format("gpus={}", gpus)};
        out.push_back({"two-step-alltoall", shape, "two-step-alltoall"});
        out.push_back({"three-step-alltoall", shape, "three-step-alltoall"});
      }
      break;
    default: break;
  }
  return out;
}

std::string settingsText(const std::vector<std::string>& settings) {
  std::string s;
  for (const std::string& x : settings) s += " " + x;
  return s;
}

void addLibrary(const topo::Topology& topology, semantics::CollectiveType c, CandidateSet& set) {
  const int32_t ranks = static_cast<int32_t>(topology.gpus().size());
  // The ring algorithms run on the rings NCCL's search would build on this machine (at most one
  // per rank), each channel over its own share of the buffer: in a box of direct links rings that
  // follow its links, across boxes on different rails.
  const sim::NcclMachine machine = sim::ncclMachineOf(topology, sim::archOf(topology));
  const std::vector<std::vector<int32_t>> rings = sim::ncclRings(topology, std::min(ranks, machine.channels));
  for (const LibrarySpec& spec : librarySpecs(c, ranks, topology.boxCount()))
    for (ir::Protocol p : {ir::Protocol::LL, ir::Protocol::LL128, ir::Protocol::Simple}) {
      const bool ring = spec.algorithm.rfind("ring-", 0) == 0;
      const std::string name = spec.algorithm + settingsText(spec.settings) +
                               (ring ? fmt::format(" on NCCL's {} rings", rings.size()) : "") + " " +
                               std::string(ir::protocolName(p));
      const std::string id = spec.id + "-" + lower(ir::protocolName(p));
      try {
        const algorithms::Instance instance =
            ring ? algorithms::instantiateOnRings(spec.algorithm, rings, spec.settings, p)
                 : algorithms::instantiate(spec.algorithm, spec.settings, p);
        driver::CompiledAndVerified cv = driver::compileAndVerify(instance.program, driver::Target{}, id + ".xml");
        if (!cv.verified()) {
          set.rejected.push_back(
              {name, fmt::format("the verifier reports {}", verify::verdictName(cv.report.verdict))});
          continue;
        }
        set.candidates.push_back({name, id, "library", std::move(cv.compiled.algorithm), id + ".xml"});
      } catch (const std::exception& e) {
        set.rejected.push_back({name, e.what()});
      }
    }
}

void addSynthesized(const topo::Topology& topology, semantics::CollectiveType c, const CandidateOptions& options,
                    CandidateSet& set) {
  if (c != semantics::CollectiveType::AllReduce && c != semantics::CollectiveType::AllGather &&
      c != semantics::CollectiveType::ReduceScatter)
    return;
  for (synth::trees::Composition composition :
       synth::trees::compositionsOf({.timeoutSeconds = options.synthesisSeconds}, topology, c))
    for (ir::Protocol p : {ir::Protocol::Simple}) {  // one protocol: each synthesis costs seconds
      const std::string method(synth::trees::compositionName(composition));
      const std::string name = fmt::format("synth {} {}", method, ir::protocolName(p));
      const std::string id = fmt::format("synth-{}-{}", method, lower(ir::protocolName(p)));
      try {
        synth::trees::TreeSynthesis s = synth::trees::synthesizeTrees(
            topology, c, {.composition = composition, .protocol = p, .timeoutSeconds = options.synthesisSeconds});
        // Its program, and the in-place one where the composition has it: each verified.
        std::vector<std::tuple<std::string, std::string, ir::Algorithm>> programs;
        programs.emplace_back(name, id, std::move(s.compiled.algorithm));
        if (s.inPlace) programs.emplace_back(name + " in-place", id + "-ip", std::move(s.inPlace->algorithm));
        for (auto& [programName, programId, algorithm] : programs) {
          const verify::FileReport report =
              driver::verifyCompiled(algorithm, std::nullopt, driver::Target{}, programId + ".xml");
          if (report.verdict != verify::Verdict::Verified)
            set.rejected.push_back(
                {programName, fmt::format("the verifier reports {}", verify::verdictName(report.verdict))});
          else
            set.candidates.push_back({programName, programId, "synth", std::move(algorithm), programId + ".xml"});
        }
      } catch (const std::exception& e) {
        set.rejected.push_back({name, e.what()});
      }
    }
}

std::string fileId(const std::string& path, size_t index) {
  std::string stem = std::filesystem::path(path).filename().string();
  for (const char* ext : {".gz", ".xml"})
    if (stem.size() > std::string_view(ext).size() && stem.ends_with(ext))
      stem.resize(stem.size() - std::string_view(ext).size());
  for (char& ch : stem)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_') ch = '-';
  return fmt::format("file{}-{}", index, lower(stem));
}

void addFiles(const topo::Topology& topology, semantics::CollectiveType c, const CandidateOptions& options,
              CandidateSet& set) {
  const int32_t ranks = static_cast<int32_t>(topology.gpus().size());
  for (size_t k = 0; k < options.userFiles.size(); ++k) {
    const std::string& path = options.userFiles[k];
    // A file the user named that cannot be read is their input's error (exit 2), not a rejected candidate.
    ir::ReadResult read = ir::readAlgorithmFile(path);
    try {
      if (read.algorithm.coll != irKindOf(c) || read.algorithm.ngpus != ranks) continue;  // another collective's file
      verify::Options vo;
      vo.profile = semantics::profileForHeader(read.algorithm);
      vo.boxes = driver::boxLayoutOf(topology);
      const verify::FileReport report = verify::verifyAlgorithm(read.algorithm, path, vo, read.runtimeParserIssues);
      if (report.verdict != verify::Verdict::Verified) {
        set.rejected.push_back({path, fmt::format("the verifier reports {}", verify::verdictName(report.verdict))});
        continue;
      }
      set.candidates.push_back({path, fileId(path, k + 1), "file", std::move(read.algorithm), path});
    } catch (const std::exception& e) {
      set.rejected.push_back({path, e.what()});
    }
  }
}

}  // namespace

CandidateSet gatherCandidates(const topo::Topology& topology, semantics::CollectiveType collective,
                              const CandidateOptions& options) {
  CandidateSet set;
  if (options.library) addLibrary(topology, collective, set);
  if (options.synthesize) addSynthesized(topology, collective, options, set);
  addFiles(topology, collective, options, set);
  return set;
}

}  // namespace ccforge::tune
