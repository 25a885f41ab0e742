#include <catch2/catch.hpp>

#include "dsl/collective_binding.hpp"

using namespace ccforge;
using dsl::CollectiveBinding;

TEST_CASE("the chunk factor counts chunks per rank's share, as in msccl-tools") {
  CHECK(CollectiveBinding{.type = semantics::CollectiveType::AllReduce, .ranks = 4, .chunkFactor = 3}.chunksPerLoop() ==
        3);
  CHECK(CollectiveBinding{.type = semantics::CollectiveType::AllGather, .ranks = 4, .chunkFactor = 3}.chunksPerLoop() ==
        12);
  CHECK(CollectiveBinding{.type = semantics::CollectiveType::AllToAll, .ranks = 4, .chunkFactor = 2}.chunksPerLoop() ==
        8);
  CHECK(CollectiveBinding{.type = semantics::CollectiveType::ReduceScatter, .ranks = 2, .chunkFactor = 1}
            .chunksPerLoop() == 2);
  CHECK(CollectiveBinding{.type = semantics::CollectiveType::Broadcast, .ranks = 4, .chunkFactor = 5}.chunksPerLoop() ==
        5);
}

TEST_CASE("refining a collective cuts every chunk into equal consecutive parts") {
  semantics::ChunkValues v;
  CollectiveBinding ag{.type = semantics::CollectiveType::AllGather, .ranks = 2, .chunkFactor = 1};
  const semantics::Collective fine = ag.collective(3);
  CHECK(fine.chunksPerLoop() == 6);
  CHECK(fine.inputChunks() == 3);
  // Output chunk 4 is part 1 of DSL output chunk 1, which comes from rank 1's (only) input chunk.
  CHECK(fine.expectedOutput(v, 0, 4) == v.input(1, 1));

  semantics::CustomCollectiveSpec spec{
      "pass", 2, 1, 1, std::nullopt, {semantics::ChunkMapEntry{1, 0, {semantics::Atom{0, 0}}}}};
  CollectiveBinding custom{.type = semantics::CollectiveType::Custom, .ranks = 2, .chunkFactor = 1, .custom = spec};
  const semantics::Collective refined = custom.collective(2);
  CHECK(refined.outputChunks() == 2);
  CHECK(refined.expectedOutput(v, 1, 1) == v.input(0, 1));
  CHECK_FALSE(refined.expectedOutput(v, 0, 1).has_value());
}

TEST_CASE("bindings that describe no collective are refused") {
  CHECK_THROWS_WITH((CollectiveBinding{.type = semantics::CollectiveType::Broadcast, .ranks = 2, .root = 2}.validate()),
                    Catch::Contains("root 2 is out of range"));
  CHECK_THROWS_WITH((CollectiveBinding{.type = semantics::CollectiveType::Custom, .ranks = 2}.validate()),
                    Catch::Contains("needs its specification"));
  CHECK_THROWS_WITH((CollectiveBinding{.type = semantics::CollectiveType::AllReduce, .ranks = 0}.validate()),
                    Catch::Contains("at least 1 rank"));
}
