// `ccforge tune`'s decisions (src/tune): the windows it writes are what the runtime's selection
// rule needs, checked here with the selection model directly; the legacy config's format.
#include <catch2/catch.hpp>

#include <algorithm>

#include "semantics/selection.hpp"
#include "sim/simulate.hpp"
#include "sim/size_sweep.hpp"
#include "topology/spec_reader.hpp"
#include "tune/legacy_config.hpp"
#include "tune/output.hpp"
#include "tune/tuning.hpp"

using namespace ccforge;
using namespace ccforge::tune;

TEST_CASE("tune: windows of one call form never overlap and each file serves every power-of-two call in it") {
  const topo::Topology topology = topo::loadTopology("dgx1");
  TuneOptions options;
  options.maxBytes = uint64_t{1} << 24;
  CandidateSet set = gatherCandidates(topology, semantics::CollectiveType::AllGather,
                                      {.library = true, .synthesize = false, .synthesisSeconds = 20, .userFiles = {}});
  REQUIRE(!set.candidates.empty());
  const CollectiveTuning t = tuneCollective(topology, semantics::CollectiveType::AllGather, std::move(set), options);
  REQUIRE(t.sizes.size() == 15);  // 1 KiB .. 16 MiB
  for (semantics::CallForm form : kForms) {
    std::vector<const Window*> windows;
    for (const Window& w : t.windows)
      if (w.form == form) windows.push_back(&w);
    std::sort(windows.begin(), windows.end(),
              [](const Window* a, const Window* b) { return a->minBytes < b->minBytes; });
    for (size_t k = 1; k < windows.size(); ++k) CHECK(windows[k - 1]->maxBytes < windows[k]->minBytes);
    for (const Window* w : windows) {
      const ir::Algorithm file = windowedProgram(t, *w);
      // The window holds whole doubling steps of the tuned sizes.
      CHECK(w->minBytes == static_cast<int64_t>(t.sizes[w->firstSize]));
      CHECK(w->maxBytes == static_cast<int64_t>(2 * t.sizes[w->lastSize] - 1));
      for (semantics::Selector s : {semantics::Selector::Internal, semantics::Selector::External})
        for (const semantics::SelectionCall& call : consideredCalls(s, ir::CollectiveKind::AllGather, 8)) {
          const uint64_t bytes = callBytes(call);
          const bool inside =
              bytes >= static_cast<uint64_t>(w->minBytes) && bytes <= static_cast<uint64_t>(w->maxBytes);
          if (inside && call.form == form) CHECK(accepts(s, file, call));
          if (call.form != form) CHECK_FALSE(accepts(s, file, call));
        }
      // It was chosen because it beats NCCL by the margin at every size of the window.
      for (size_t i = w->firstSize; i <= w->lastSize; ++i)
        CHECK(*t.evaluations[w->candidate].timeUs[i] * (1 + options.margin) <= t.nccl[i].timeUs);
    }
  }
}

TEST_CASE("tune: no time is extrapolated from sizes below four tile iterations") {
  // DGX-1's ring composition: 128 chunks per loop of 2 MiB tiles, so one iteration is 256 MiB and
  // four are 1 GiB; a line would need three sizes from 1 GiB on, beyond the tuned 1 GiB, so every
  // size is simulated: each time equals the simulator's own.
  const topo::Topology topology = topo::loadTopology("dgx1");
  TuneOptions options;
  options.maxBytes = uint64_t{1} << 30;
  CandidateSet set = gatherCandidates(topology, semantics::CollectiveType::AllGather,
                                      {.library = false, .synthesize = true, .synthesisSeconds = 60, .userFiles = {}});
  const auto rings = std::find_if(set.candidates.begin(), set.candidates.end(),
                                  [](const Candidate& c) { return c.name == "synth rings Simple"; });
  REQUIRE(rings != set.candidates.end());
  REQUIRE(rings->algorithm.nchunksperloop == 128);
  const size_t index = static_cast<size_t>(rings - set.candidates.begin());
  const Candidate candidate = *rings;
  const CollectiveTuning t = tuneCollective(topology, semantics::CollectiveType::AllGather, std::move(set), options);
  for (size_t i = 0; i < t.sizes.size(); ++i) {
    if (t.sizes[i] <= sim::kExtrapolatedAbove) continue;
    const sim::SimulationReport direct =
        sim::simulate(candidate.algorithm, candidate.source, topology, {.sizes = {t.sizes[i]}, .arch = options.arch});
    REQUIRE(t.evaluations[index].timeUs[i]);
    CHECK(*t.evaluations[index].timeUs[i] == direct.results.at(0).timeUs);
  }
}

TEST_CASE("tune: a margin no candidate reaches leaves every size to NCCL") {
  const topo::Topology topology = topo::loadTopology("dgx1");
  TuneOptions options;
  options.maxBytes = uint64_t{1} << 20;
  options.margin = 10;  // 11 times faster than NCCL
  CandidateSet set = gatherCandidates(topology, semantics::CollectiveType::AllReduce,
                                      {.library = true, .synthesize = false, .synthesisSeconds = 20, .userFiles = {}});
  const CollectiveTuning t = tuneCollective(topology, semantics::CollectiveType::AllReduce, std::move(set), options);
  CHECK(t.windows.empty());
}

TEST_CASE("tune: the tuned range runs between powers of two") {
  CHECK(tunedSizes({.minBytes = 1024, .maxBytes = 4096, .margin = 0.05, .arch = sim::Arch::Sm80}) ==
        std::vector<uint64_t>{1024, 2048, 4096});
  CHECK_THROWS_AS(tunedSizes({.minBytes = 3000, .maxBytes = 4096, .margin = 0.05, .arch = sim::Arch::Sm80}),
                  std::invalid_argument);
  CHECK_THROWS_AS(tunedSizes({.minBytes = 4096, .maxBytes = 1024, .margin = 0.05, .arch = sim::Arch::Sm80}),
                  std::invalid_argument);
}

TEST_CASE("tune: the legacy MSCCL_CONFIG has exclusive maxbytes, the file's protocol, at most the limit") {
  CollectiveTuning t;
  t.collective = semantics::CollectiveType::AllToAll;
  t.sizes = {1024, 2048};
  t.nccl = {{.algorithm = "p2p", .protocol = ir::Protocol::Simple, .ncclTimeUs = 10, .timeUs = 10, .channels = 1},
            {.algorithm = "p2p", .protocol = ir::Protocol::Simple, .ncclTimeUs = 20, .timeUs = 20, .channels = 1}};
  for (ir::Protocol p : {ir::Protocol::LL, ir::Protocol::LL128}) {
    Candidate c;
    c.algorithm.proto = p;
    t.set.candidates.push_back(c);
    Evaluation e;
    e.timeUs = {p == ir::Protocol::LL ? 5.0 : 9.0, 12.0};
    t.evaluations.push_back(e);
  }
  t.windows = {{semantics::CallForm::OutOfPlace, 1, 1, 1, 2048, 4095, "b.xml"},
               {semantics::CallForm::OutOfPlace, 0, 0, 0, 1024, 2047, "a.xml"},
               {semantics::CallForm::InPlace, 0, 0, 0, 1024, 2047, "in-place.xml"}};
  const auto accepted = [](const ir::Algorithm&) { return std::string(); };
  const LegacyConfig all = legacyConfig(t, 4, accepted);
  // a.xml saves 5 us, b.xml 8 us: b first. In-place alltoall is left out (the legacy runtime refuses it).
  CHECK(legacyConfigXml(t, all, "/dir") ==
        "<msccl_algos>\n"
        "  <load path=\"/dir/b.xml\" minbytes=\"2048\" maxbytes=\"4096\" proto=\"LL128\"/>\n"
        "  <load path=\"/dir/a.xml\" minbytes=\"1024\" maxbytes=\"2048\" proto=\"LL\"/>\n"
        "</msccl_algos>\n");
  CHECK(all.left.empty());
  const LegacyConfig one = legacyConfig(t, 1, accepted);
  REQUIRE(one.loads.size() == 1);
  REQUIRE(one.left.size() == 1);
  CHECK_THAT(one.left[0], Catch::StartsWith("a.xml (") && Catch::Contains("MSCCL_MAX_NUM_ALGOS"));
  // A program the legacy runtime cannot run is left out, and makes room for the next.
  const LegacyConfig refused = legacyConfig(
      t, 1, [](const ir::Algorithm& a) { return std::string(a.proto == ir::Protocol::LL128 ? "refused" : ""); });
  REQUIRE(refused.loads.size() == 1);
  CHECK(t.windows[refused.loads[0].window].file == "a.xml");
  CHECK(refused.left == std::vector<std::string>{"b.xml (refused)"});
}

// A reducescatter window on 4 ranks, out of place, 1 KiB .. 2 KiB - 1.
CollectiveTuning reduceScatterTuning(std::vector<Window> windows) {
  CollectiveTuning t;
  t.collective = semantics::CollectiveType::ReduceScatter;
  t.ranks = 4;
  t.sizes = {1024, 2048};
  t.nccl = {{"ring", ir::Protocol::Simple, 10}, {"ring", ir::Protocol::Simple, 20}};
  for (int k = 0; k < 2; ++k) {
    Candidate c;
    c.algorithm.coll = ir::CollectiveKind::ReduceScatter;
    c.algorithm.collName = "reducescatter";
    c.algorithm.ngpus = 4;
    c.algorithm.nchunksperloop = 4;
    t.set.candidates.push_back(c);
    Evaluation e;
    e.timeUs = {5.0 + k, 12.0};
    t.evaluations.push_back(e);
  }
  t.windows = std::move(windows);
  return t;
}

TEST_CASE("tune: the legacy config's programs are in the legacy spelling, and its selector serves their windows") {
  const CollectiveTuning t = reduceScatterTuning({{semantics::CallForm::OutOfPlace, 0, 0, 0, 1024, 2047, "rs.xml"}});
  const LegacyConfig c = legacyConfig(t, 4, [](const ir::Algorithm&) { return std::string(); });
  REQUIRE(c.loads.size() == 1);
  const ir::Algorithm& a = c.loads[0].program;
  CHECK(a.collName == "reduce_scatter");  // microsoft/msccl skips coll="reducescatter"
  CHECK(a.inplace == std::optional<bool>(false));
  CHECK_FALSE(a.outofplace.has_value());
  CHECK(a.maxBytes == std::optional<int64_t>(2048));  // exclusive
  const LegacyCheck check = checkLegacyConfig(t, c);
  // 1 KiB is the one power-of-two size in the window: counts of 64, 32, 16, 8 elements of 1..8 bytes.
  CHECK(check.callsInWindows == 4);
  CHECK(check.callsServed == 4);
  CHECK(check.misrouted.empty());
}

TEST_CASE("tune: the legacy check names a call the legacy selector gives to another window's file") {
  // Overlapping windows (tune never writes them): the first load in the config takes 1 KiB.
  const CollectiveTuning t =
      reduceScatterTuning({{semantics::CallForm::OutOfPlace, 0, 0, 0, 1024, 2047, "first.xml"},
                           {semantics::CallForm::OutOfPlace, 1, 0, 0, 1024, 1024, "second.xml"}});
  const LegacyCheck check =
      checkLegacyConfig(t, legacyConfig(t, 4, [](const ir::Algorithm&) { return std::string(); }));
  CHECK(check.callsServed == 0);
  REQUIRE(check.misrouted.size() == 4);
  CHECK_THAT(check.misrouted[0], Catch::Contains("the legacy runtime runs first.xml, its window's file is second.xml"));
}
