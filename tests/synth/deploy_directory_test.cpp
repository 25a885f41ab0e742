// What `ccforge synth -o DIR` writes is a directory the runtime selects from without a finding:
// each program the synthesis writes is verified by `verify DIR` (verify::verifyPaths, in
// process), including the directory's selection check (docs/verify.md "Directories": no
// selection.ambiguous, .shadowed, .dead or .stray-file). Expected files: SCCL's DGX-1 frontier
// (2,2,3) and (6,3,7) (Cai et al., PPoPP'21), of which (6,3,7) has nchunksperloop 8 x 6 = 48,
// which divides no power-of-two count (selection.dead if written), so (2,2,3) is written in both
// call forms (the in-place and the out-of-place file do not compete); on 4 x 8 A100 the tree packing
// is the faster below about 12 MiB and the hierarchical composition above (docs/synth-trees.md),
// so both are written with adjacent windows.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "synth/sccl/frontier_files.hpp"
#include "synth/trees/tree_run.hpp"
#include "topology/spec_reader.hpp"
#include "verify/verifier.hpp"
#include "sccl_test_support.hpp"

using namespace ccforge;

namespace {

std::filesystem::path freshDirectory(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("ccforge_deploy_test_" + name);
  std::filesystem::remove_all(dir);
  return dir;
}

// `verify DIR` as the command runs it (each file against the profile its header is for).
void checkDirectoryVerifies(const std::filesystem::path& dir, size_t files) {
  verify::Options options;
  options.profileFromHeader = true;
  const std::vector<verify::FileReport> reports = verify::verifyPaths({dir.string()}, options);
  CHECK(reports.size() == files);
  for (const verify::FileReport& r : reports) {
    std::string findings;
    for (const verify::Violation& v : r.violations) findings += v.rule + ": " + v.message + "\n";
    INFO(r.file << "\n" << findings);
    CHECK(r.verdict == verify::Verdict::Verified);
    CHECK(r.violations.empty());
    bool selectionPassed = false;
    for (const verify::CheckOutcome& c : r.checks)
      selectionPassed =
          selectionPassed || (c.check == verify::Check::Selection && c.status == verify::CheckStatus::Passed);
    CHECK(selectionPassed);
    REQUIRE(r.selection.size() == 2);  // the internal scheduler and the msccl-scheduler plugin
    for (const verify::SelectorUse& use : r.selection) CHECK_FALSE(use.selected.empty());
  }
}

// The SMT path of `synth -o`: SCCL's two frontier instances, solved directly.
std::vector<synth::sccl::FrontierPoint> scclFrontier(semantics::CollectiveType collective,
                                                     const std::filesystem::path& dir) {
  const topo::Topology dgx1 = topo::loadTopology("dgx1");
  synth::sccl::Synthesizer synth(dgx1, collective, 0, testing::quiet());
  std::vector<synth::sccl::InstanceResult> frontier{synth.solve(2, 2, 3), synth.solve(6, 3, 7)};
  for (const auto& r : frontier) REQUIRE(r.verdict == synth::sccl::Verdict::Sat);
  const std::string name(collectiveTypeName(collective));
  return synth::sccl::frontierFiles(
      synth, frontier, synth::sccl::costModel(dgx1, collective),
      {.outputDirectory = dir.string(), .programPrefix = "sccl-" + name + "-dgx1", .filePrefix = "dgx1-" + name});
}

// Each instance is lowered out of place and in place: the points come in that order.
void checkScclDirectory(semantics::CollectiveType collective) {
  const std::filesystem::path dir = freshDirectory(std::string(collectiveTypeName(collective)));
  const auto points = scclFrontier(collective, dir);
  REQUIRE(points.size() == 4);
  checkDirectoryVerifies(dir, 2);
  const std::string stem = "dgx1-" + std::string(collectiveTypeName(collective)) + "-c2-s2-r3";
  CHECK(points[0].form == semantics::CallForm::OutOfPlace);
  CHECK(points[0].file == (dir / (stem + ".xml")).string());
  CHECK(points[1].form == semantics::CallForm::InPlace);
  CHECK(points[1].file == (dir / (stem + "-inplace.xml")).string());
  for (size_t i : {0, 1}) {
    REQUIRE(points[i].deployment.window);
    CHECK(points[i].deployment.window->minBytes == 0);
  }
  for (size_t i : {2, 3}) {
    CHECK(points[i].file.empty());
    CHECK_THAT(points[i].deployment.notWritten, Catch::Contains("nchunksperloop=48"));
  }
  std::filesystem::remove_all(dir);
}

}  // namespace

TEST_CASE(
    "synth -o dgx1 allgather: only the deployable frontier point is written, in both call forms; the directory "
    "verifies") {
  checkScclDirectory(semantics::CollectiveType::AllGather);
}

TEST_CASE(
    "synth -o dgx1 reducescatter: only the deployable frontier point is written, in both call forms; the directory "
    "verifies") {
  checkScclDirectory(semantics::CollectiveType::ReduceScatter);
}

TEST_CASE("synth -o a100-4 allgather with trees: both compositions, adjacent windows; the directory verifies") {
  const std::filesystem::path dir = freshDirectory("a100-4");
  const synth::trees::TreeRun run = synth::trees::runTreeSynthesis(
      topo::loadTopology("a100-4"), semantics::CollectiveType::AllGather, {.outputDirectory = dir.string()});
  checkDirectoryVerifies(dir, 2);
  REQUIRE(run.outcomes.size() == 2);
  const auto& packing = run.outcomes[0].deployment.window;
  const auto& hierarchical = run.outcomes[1].deployment.window;
  REQUIRE(packing);
  REQUIRE(hierarchical);
  // The packing (depth 7, 85 us at 1 KiB in the simulator) starts; the hierarchical composition
  // (151 us at 1 KiB, 95.8% of the bound at 1 GiB) takes over between 4 and 16 MiB.
  CHECK(packing->minBytes == 0);
  REQUIRE(packing->maxBytes);
  CHECK(hierarchical->minBytes == *packing->maxBytes + 1);
  CHECK(hierarchical->minBytes > (int64_t{4} << 20));
  CHECK(hierarchical->minBytes < (int64_t{16} << 20));
  std::filesystem::remove_all(dir);
}
