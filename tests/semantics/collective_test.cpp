#include <catch2/catch.hpp>

#include "semantics/collective.hpp"

using namespace ccforge;
using ir::Buffer;

TEST_CASE("allreduce: every output chunk is the sum over ranks of that input chunk") {
  semantics::ChunkValues v;
  auto c = semantics::Collective::standard(semantics::CollectiveType::AllReduce, 3, 2);
  CHECK(c.inputChunks() == 2);
  CHECK(c.outputChunks() == 2);
  auto expected = v.reduce(v.reduce(v.input(0, 1), v.input(1, 1)), v.input(2, 1));
  CHECK(c.expectedOutput(v, 2, 1) == expected);
  CHECK(c.initialInput(v, 2, 1) == v.input(2, 1));
}

TEST_CASE("allgather and alltoall postconditions place shards by rank") {
  semantics::ChunkValues v;
  auto ag = semantics::Collective::standard(semantics::CollectiveType::AllGather, 4, 8);
  CHECK(ag.inputChunks() == 2);
  CHECK(ag.outputChunks() == 8);
  CHECK(ag.expectedOutput(v, 0, 5) == v.input(2, 1));
  auto a2a = semantics::Collective::standard(semantics::CollectiveType::AllToAll, 4, 8);
  // Output chunk 5 of rank 3 comes from rank 2 (5/2), its chunk for rank 3: 3*2 + 5%2.
  CHECK(a2a.expectedOutput(v, 3, 5) == v.input(2, 7));
}

TEST_CASE("reducescatter sums the rank's shard") {
  semantics::ChunkValues v;
  auto rs = semantics::Collective::standard(semantics::CollectiveType::ReduceScatter, 2, 4);
  CHECK(rs.outputChunks() == 2);
  CHECK(rs.expectedOutput(v, 1, 0) == v.reduce(v.input(0, 2), v.input(1, 2)));
}

TEST_CASE("rooted collectives constrain only what the root defines") {
  semantics::ChunkValues v;
  auto reduce = semantics::Collective::standard(semantics::CollectiveType::Reduce, 4, 1, 2);
  CHECK_FALSE(reduce.expectedOutput(v, 0, 0).has_value());
  CHECK(reduce.expectedOutput(v, 2, 0).has_value());
  auto bcast = semantics::Collective::standard(semantics::CollectiveType::Broadcast, 4, 3, 1);
  CHECK(bcast.expectedOutput(v, 3, 2) == v.input(1, 2));
  auto scatter = semantics::Collective::standard(semantics::CollectiveType::Scatter, 2, 4, 0);
  CHECK(scatter.expectedOutput(v, 1, 1) == v.input(0, 3));
  auto gather = semantics::Collective::standard(semantics::CollectiveType::Gather, 2, 2, 1);
  CHECK(gather.expectedOutput(v, 1, 0) == v.input(0, 0));
  CHECK_FALSE(gather.expectedOutput(v, 0, 0).has_value());
  CHECK(bcast.describe() == "broadcast(root 1)");
}

TEST_CASE("alltonext sends rank i's buffer to rank i+1") {
  semantics::ChunkValues v;
  auto c = semantics::Collective::standard(semantics::CollectiveType::AllToNext, 3, 2);
  CHECK_FALSE(c.expectedOutput(v, 0, 0).has_value());
  CHECK(c.expectedOutput(v, 2, 1) == v.input(1, 1));
}

TEST_CASE("nonsensical parameters are refused with a message") {
  CHECK_THROWS_WITH(semantics::Collective::standard(semantics::CollectiveType::AllGather, 4, 6),
                    Catch::Contains("multiple of the number of ranks"));
  CHECK_THROWS_WITH(semantics::Collective::standard(semantics::CollectiveType::Broadcast, 4, 4, 4),
                    Catch::Contains("root 4"));
  CHECK_THROWS(semantics::Collective::standard(semantics::CollectiveType::AllReduce, 0, 4));
}

TEST_CASE("in-place layouts alias input and output as the runtime does") {
  auto ar = semantics::Collective::standard(semantics::CollectiveType::AllReduce, 4, 4);
  auto l = ar.layout(1, semantics::CallForm::InPlace, 2);
  CHECK(l.view(Buffer::Input).region == l.view(Buffer::Output).region);
  CHECK(l.view(Buffer::Scratch).region != l.view(Buffer::Input).region);
  CHECK(l.view(Buffer::Scratch).length == 2);

  auto ag = semantics::Collective::standard(semantics::CollectiveType::AllGather, 4, 8);
  auto g = ag.layout(3, semantics::CallForm::InPlace, 0);
  CHECK(g.view(Buffer::Input).region == g.view(Buffer::Output).region);
  CHECK(g.view(Buffer::Input).base == 6);  // sendbuf == recvbuf + rank * count
  CHECK(g.view(Buffer::Input).length == 2);

  auto rs = semantics::Collective::standard(semantics::CollectiveType::ReduceScatter, 4, 8);
  auto s = rs.layout(2, semantics::CallForm::InPlace, 0);
  CHECK(s.view(Buffer::Output).base == 4);  // recvbuf == sendbuf + rank * count
  auto o = rs.layout(2, semantics::CallForm::OutOfPlace, 0);
  CHECK(o.view(Buffer::Output).region != o.view(Buffer::Input).region);
}

TEST_CASE("custom collectives come from chunk maps") {
  semantics::CustomCollectiveSpec spec;
  spec.name = "swap";
  spec.ranks = 2;
  spec.inputChunks = 1;
  spec.outputChunks = 1;
  spec.post = {{0, 0, {semantics::Atom{1, 0}}}, {1, 0, {semantics::Atom{0, 0}}}};
  auto c = semantics::Collective::custom(spec);
  semantics::ChunkValues v;
  CHECK(c.expectedOutput(v, 0, 0) == v.input(1, 0));
  CHECK(c.describe() == "custom 'swap'");
  spec.post.push_back({2, 0, {semantics::Atom{0, 0}}});
  CHECK_THROWS_WITH(semantics::Collective::custom(spec), Catch::Contains("outside the buffer"));
}
