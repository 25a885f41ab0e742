// The XML nodes a rank's load of a file stores, counted as msccl_parser.cc stores them: the
// <algo>, every <gpu> element, and the <tb> and <step> elements of the loading rank's <gpu>.
#include <catch2/catch.hpp>

#include "ir/reader.hpp"
#include "semantics/parser_nodes.hpp"

using namespace ccforge;

namespace {

// Rank 0: one tb with 2 steps; rank 1: two tbs with 3 and 1 steps; rank 2: no tb.
const char* kProgram =
    R"(<algo name="t" proto="Simple" nchannels="1" nchunksperloop="1" ngpus="3" coll="allreduce" inplace="1" outofplace="0" minBytes="0" maxBytes="0">
  <gpu id="1" i_chunks="1" o_chunks="0" s_chunks="0">
    <tb id="0" send="-1" recv="-1" chan="0">
      <step s="0" type="nop" srcbuf="i" srcoff="-1" dstbuf="o" dstoff="-1" cnt="0" depid="1" deps="0" hasdep="0"/>
      <step s="1" type="nop" srcbuf="i" srcoff="-1" dstbuf="o" dstoff="-1" cnt="0" depid="1" deps="0" hasdep="0"/>
      <step s="2" type="cpy" srcbuf="i" srcoff="0" dstbuf="s" dstoff="0" cnt="1" depid="1" deps="0" hasdep="0"/>
    </tb>
    <tb id="1" send="-1" recv="-1" chan="0">
      <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="s" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="1"/>
    </tb>
  </gpu>
  <gpu id="0" i_chunks="1" o_chunks="0" s_chunks="1">
    <tb id="0" send="-1" recv="-1" chan="0">
      <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="s" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
      <step s="1" type="cpy" srcbuf="s" srcoff="0" dstbuf="i" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
  </gpu>
  <gpu id="2" i_chunks="1" o_chunks="0" s_chunks="0">
  </gpu>
</algo>
)";

}  // namespace

TEST_CASE("parser nodes per rank: the algo, every gpu, and the rank's own tb and step elements") {
  const ir::Algorithm a = ir::readAlgorithm(kProgram, "t.xml").algorithm;
  // Shared by every load: 1 algo + 3 gpu elements = 4.
  CHECK(semantics::parserNodesPerRank(a) == std::vector<int64_t>{4 + 1 + 2, 4 + 2 + 4, 4});
}

TEST_CASE("parser nodes per rank: gpu elements with ids no rank has are stored by every load, their children by none") {
  ir::Algorithm a = ir::readAlgorithm(kProgram, "t.xml").algorithm;
  a.ngpus = 2;  // the <gpu id="2"> is loaded by nobody but still parsed as a node
  CHECK(semantics::parserNodesPerRank(a) == std::vector<int64_t>{4 + 1 + 2, 4 + 2 + 4});
}
