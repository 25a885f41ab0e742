// Every library program tune considers for a catalog machine routes there (issue 24): rings on
// NCCL's rings, all-pairs over PXN, the spine or the host path; on the synthesizers' paper models
// (TE-CCL's ndv2-2, ndv2-4, dgx2-2) through the GPUs of the two boxes to their one link.
#include <catch2/catch.hpp>

#include "semantics/loaded_program.hpp"
#include "topology/catalog.hpp"
#include "topology/routes.hpp"
#include "topology/spec_reader.hpp"
#include "tune/candidates.hpp"

using namespace ccforge;

TEST_CASE("tune: every library program routes on every catalog machine") {
  for (const topo::CatalogEntry& e : topo::catalogEntries()) {
    // a100-4 and a100-8 are a100-2's boxes and rails, more of them: a100-2 stands for them.
    if (e.name == "a100-4" || e.name == "a100-8") continue;
    const topo::Topology t = topo::loadTopology(e.name);
    for (semantics::CollectiveType c :
         {semantics::CollectiveType::AllReduce, semantics::CollectiveType::AllGather,
          semantics::CollectiveType::ReduceScatter, semantics::CollectiveType::AllToAll}) {
      const tune::CandidateSet set =
          tune::gatherCandidates(t, c, {.library = true, .synthesize = false, .synthesisSeconds = 0, .userFiles = {}});
      for (const tune::Rejected& r : set.rejected) {
        INFO(e.name << ": " << r.name << ": " << r.why);
        CHECK(r.why.find("route") == std::string::npos);
      }
      for (const tune::Candidate& candidate : set.candidates) {
        const semantics::LoadResult load = semantics::loadProgram(candidate.algorithm);
        REQUIRE(load.program);
        for (const semantics::LoadedConnection& conn : load.program->connections()) {
          INFO(e.name << ": " << candidate.name << ": rank " << conn.sender << " -> rank " << conn.receiver);
          CHECK(topo::simulatorRoute(t, conn.sender, conn.receiver));
        }
      }
    }
  }
}
