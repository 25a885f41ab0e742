// Fused computation + collective programs (docs/fused.md): every library configuration verifies
// under ccforge-fused; each of the six mutations is rejected with its rule; the stock
// runtimes' profiles refuse the header; the IR round-trips.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fused_library.hpp"
#include "ir/reader.hpp"
#include "ir/writer.hpp"
#include "support/verify_support.hpp"
#include "verify/verifier.hpp"

using namespace ccforge;
using algorithms::FusedOrder;
using algorithms::FusedParameters;

namespace {

verify::FileReport verifyFused(const ir::Algorithm& a) {
  verify::Options o;
  o.profile = semantics::fusedProfile();
  return verify::verifyAlgorithm(a, "<memory>", o, {});
}

std::string rulesOf(const verify::FileReport& r) {
  std::string out;
  for (const auto& v : r.violations) out += v.rule + ": " + v.message + "\n";
  return out;
}

void checkVerified(const ir::Algorithm& a) {
  const verify::FileReport r = verifyFused(a);
  INFO(a.name << "\n" << rulesOf(r) << r.error);
  CHECK(r.verdict == verify::Verdict::Verified);
}

FusedParameters params(ir::ComputeOp op, int32_t ranks, int32_t chunks) {
  FusedParameters p;
  p.op = op;
  p.ranks = ranks;
  p.chunksPerRank = chunks;
  const int32_t rows = ranks * chunks * 4;
  switch (op) {
    case ir::ComputeOp::Gemv:
      p.rows = rows;
      p.inner = 8;
      p.cols = 1;
      break;
    case ir::ComputeOp::EmbeddingBag:
      p.rows = rows;
      p.cols = 4;
      p.inner = 3;
      p.tableRows = 10;
      break;
    case ir::ComputeOp::Gemm:
      p.rows = rows;
      p.inner = 4;
      p.cols = 3;
      break;
    case ir::ComputeOp::None: break;
  }
  return p;
}

// GEMV + AllReduce on 2 ranks, 2 chunks per rank: tb 0 computes, 1 reduces, 2 sends, 3 receives.
ir::Algorithm gemv2() { return algorithms::fusedProgram(params(ir::ComputeOp::Gemv, 2, 2)); }

ir::Step& stepOf(ir::Algorithm& a, int32_t rank, int32_t tb, int32_t step) {
  return a.gpus[static_cast<size_t>(rank)].threadBlocks[static_cast<size_t>(tb)].steps[static_cast<size_t>(step)];
}

}  // namespace

TEST_CASE("fused library programs verify for R in {2,4,8}, several granularities, both orders, bulk and fused") {
  int checked = 0;
  for (ir::ComputeOp op : {ir::ComputeOp::Gemv, ir::ComputeOp::EmbeddingBag, ir::ComputeOp::Gemm})
    for (int32_t ranks : {2, 4, 8})
      for (int32_t chunks : {1, 2, 4})
        for (FusedOrder order : {FusedOrder::Natural, FusedOrder::RemoteFirst})
          for (bool bulk : {false, true}) {
            if (ranks * chunks > 16 && bulk) continue;  // the large ones once is enough
            FusedParameters p = params(op, ranks, chunks);
            p.order = order;
            p.bulkSynchronous = bulk;
            const ir::Algorithm a = algorithms::fusedProgram(p);
            checkVerified(a);
            ++checked;
          }
  CHECK(checked > 60);
}

TEST_CASE("a fused program round-trips through the writer and the reader") {
  for (ir::ComputeOp op : {ir::ComputeOp::Gemv, ir::ComputeOp::EmbeddingBag, ir::ComputeOp::Gemm}) {
    const ir::Algorithm a = algorithms::fusedProgram(params(op, 4, 2));
    const ir::ReadResult back = ir::readAlgorithm(ir::toXml(a), "<memory>");
    CHECK(back.algorithm.fused);
    CHECK(back.algorithm.sameAs(a));
  }
}

TEST_CASE("the stock runtimes' profiles refuse a fused program, and its header selects ccforge-fused") {
  const ir::Algorithm a = gemv2();
  CHECK(semantics::profileForHeader(a).name == "ccforge-fused");
  for (const semantics::RuntimeProfile* p : {&semantics::executorProfile(), &semantics::legacyProfile()}) {
    verify::Options o;
    o.profile = *p;
    const verify::FileReport r = verify::verifyAlgorithm(a, "<memory>", o, {});
    INFO(p->name << "\n" << rulesOf(r));
    CHECK(r.verdict == verify::Verdict::Violation);
    CHECK(test::hasRule(r, "format.fused-program"));
  }
}

TEST_CASE("fused mutation: dropping the dependency of the first send is fused.producer-order") {
  ir::Algorithm a = gemv2();
  ir::Step& send = stepOf(a, 0, 2, 0);
  REQUIRE(send.type == ir::OpType::Send);
  send.depid = -1;
  send.deps = -1;
  const verify::FileReport r = verifyFused(a);
  INFO(rulesOf(r));
  CHECK(r.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(r, "fused.producer-order"));
}

TEST_CASE("fused mutation: duplicating a producer is fused.double-produce") {
  ir::Algorithm a = gemv2();
  auto& steps = a.gpus[0].threadBlocks[0].steps;
  steps.push_back(steps.front());
  steps.back().s = static_cast<int32_t>(steps.size()) - 1;
  const verify::FileReport r = verifyFused(a);
  INFO(rulesOf(r));
  CHECK(r.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(r, "fused.double-produce"));
}

TEST_CASE("fused mutation: overlapping two row ranges is fused.partition") {
  ir::Algorithm a = gemv2();  // 16 rows, 4 per chunk; rank 0 computes chunks 0, 1, 2, 3 in order
  ir::Step& second = stepOf(a, 0, 0, 1);
  REQUIRE(second.row == 4);
  second.row = 0;  // rows 0..7: chunks 0 and 1, overlapping the first producer's rows 0..3
  second.nrows = 8;
  second.dstoff = 0;
  second.cnt = 2;
  const verify::FileReport r = verifyFused(a);
  INFO(rulesOf(r));
  CHECK(r.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(r, "fused.partition"));
}

TEST_CASE("fused mutation: a receive racing a producer is a race") {
  ir::Algorithm a = gemv2();
  ir::Step& recv = stepOf(a, 0, 3, 0);  // receives rank 1's partial of chunk 0 into scratch
  REQUIRE(recv.type == ir::OpType::Recv);
  recv.dstbuf = ir::Buffer::Input;  // now into i[1], which rank 0's tb 0 computes, unordered
  recv.dstoff = 1;
  const verify::FileReport r = verifyFused(a);
  INFO(rulesOf(r));
  CHECK(r.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(r, "race.write-write"));
}

TEST_CASE("fused mutation: a cycle across two ranks is deadlock.cycle") {
  ir::Algorithm a = gemv2();
  for (int32_t rank : {0, 1}) {  // each rank's first send waits for its first receive
    ir::Step& send = stepOf(a, rank, 2, 0);
    send.depid = 3;
    send.deps = 0;
  }
  const verify::FileReport r = verifyFused(a);
  INFO(rulesOf(r));
  CHECK(r.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(r, "deadlock.cycle"));
}

TEST_CASE("fused mutation: writing an operand is fused.operand-write") {
  ir::Algorithm a = gemv2();
  ir::Step& copy = stepOf(a, 0, 1, 0);
  REQUIRE(copy.type == ir::OpType::Copy);
  copy.dstOperand = true;
  const verify::FileReport r = verifyFused(a);
  INFO(rulesOf(r));
  CHECK(r.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(r, "fused.operand-write"));
}

TEST_CASE("fused: a chunk read but never produced is fused.unproduced-read, and a gap is fused.partition") {
  ir::Algorithm a = gemv2();
  auto& steps = a.gpus[1].threadBlocks[0].steps;
  // Drop rank 1's producer of chunk 0 (its first compute step); the dependencies on tb 0 step k
  // now name the next producer, so keep the step count by turning it into a harmless one.
  steps[0].row = 12;
  steps[0].dstoff = 3;  // chunk 3 twice, chunk 0 never
  const verify::FileReport r = verifyFused(a);
  INFO(rulesOf(r));
  CHECK(r.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(r, "fused.unproduced-read"));
  CHECK(test::hasRule(r, "fused.partition"));
  CHECK(test::hasRule(r, "fused.double-produce"));
}

TEST_CASE("fused: a compute step whose rows are not the chunks it writes is fused.declaration") {
  ir::Algorithm a = gemv2();
  stepOf(a, 0, 0, 0).dstoff = 1;  // rows 0..3 live in chunk 0
  const verify::FileReport r = verifyFused(a);
  INFO(rulesOf(r));
  CHECK(r.verdict == verify::Verdict::Violation);
  CHECK(test::hasRule(r, "fused.declaration"));
}

TEST_CASE("the reader refuses fused elements in a file without the fused header") {
  const std::string head =
      "<algo name=\"x\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"1\" ngpus=\"1\" coll=\"allreduce\" "
      "inplace=\"1\">\n"
      "  <gpu id=\"0\" i_chunks=\"1\" o_chunks=\"1\" s_chunks=\"0\">\n";
  const std::string tail = "  </gpu>\n</algo>\n";
  CHECK_THROWS_WITH(
      ir::readAlgorithm(head + "    <operand id=\"0\" dtype=\"f32\" rows=\"1\" cols=\"1\"/>\n" + tail, "x"),
      Catch::Contains("fused programs only"));
  CHECK_THROWS_WITH(
      ir::readAlgorithm(
          head +
              "    <tb id=\"0\" send=\"-1\" recv=\"-1\" chan=\"0\">\n      <step s=\"0\" type=\"cmp\" srcbuf=\"w\" "
              "srcoff=\"-1\" dstbuf=\"i\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\" op=\"gemv\" "
              "row=\"0\" nrows=\"1\"/>\n    </tb>\n" +
              tail,
          "x"),
      Catch::Contains("fused programs only"));
}

TEST_CASE("several compute blocks: every slice once, bulk joins them, and it verifies") {
  for (bool bulk : {false, true})
    for (int32_t computeTbs : {2, 3, 8}) {
      FusedParameters p = params(ir::ComputeOp::Gemv, 4, 2);
      p.computeTbs = computeTbs;
      p.bulkSynchronous = bulk;
      const ir::Algorithm a = algorithms::fusedProgram(p);
      int32_t computes = 0;
      for (const ir::ThreadBlock& tb : a.gpus[0].threadBlocks)
        for (const ir::Step& s : tb.steps) {
          computes += s.type == ir::OpType::Compute ? 1 : 0;
          if (s.type == ir::OpType::Compute) CHECK(tb.id < computeTbs);  // compute blocks come first
        }
      CHECK(computes == 8);
      INFO("computetbs=" << computeTbs);
      checkVerified(a);
    }
  FusedParameters p = params(ir::ComputeOp::Gemv, 4, 2);
  p.computeTbs = 9;  // more than the 8 slices
  CHECK_THROWS_WITH(algorithms::fusedProgram(p), Catch::Contains("between 0 and ranks * chunks (8)"));
}

TEST_CASE("group=G: communication steps move G chunks after waiting for each one's producer, and it verifies") {
  for (ir::ComputeOp op : {ir::ComputeOp::Gemv, ir::ComputeOp::Gemm})
    for (int32_t computeTbs : {0, 3}) {
      FusedParameters p = params(op, 4, 4);
      p.chunksPerStep = 2;
      p.computeTbs = computeTbs;
      const ir::Algorithm a = algorithms::fusedProgram(p);
      for (const ir::ThreadBlock& tb : a.gpus[1].threadBlocks) {
        int32_t waits = 0;  // producers the next communication step has waited for, nops included
        for (const ir::Step& s : tb.steps) {
          if (s.type == ir::OpType::Compute) continue;
          if (s.type == ir::OpType::Nop) {
            ++waits;
            continue;
          }
          CHECK(s.cnt == 2);
          if (computeTbs > 0 && s.srcbuf == ir::Buffer::Input &&
              (s.type == ir::OpType::Send || s.type == ir::OpType::Copy)) {
            CHECK(waits == 1);  // one nop, and the step's own dependency
            CHECK(s.depid >= 0);
            CHECK(s.depid < computeTbs);
          }
          waits = 0;
        }
      }
      checkVerified(a);
    }
  FusedParameters p = params(ir::ComputeOp::Gemv, 4, 3);
  p.chunksPerStep = 2;
  CHECK_THROWS_WITH(algorithms::fusedProgram(p), Catch::Contains("must divide chunks (3)"));
}

TEST_CASE(
    "lanes=L: L copies of the communication blocks on channels of their own, each moving every L-th group; it "
    "verifies") {
  for (ir::ComputeOp op : {ir::ComputeOp::Gemv, ir::ComputeOp::EmbeddingBag})
    for (int32_t computeTbs : {0, 2}) {
      FusedParameters p = params(op, 4, 4);
      p.computeTbs = computeTbs;
      p.lanes = 2;
      const ir::Algorithm a = algorithms::fusedProgram(p);
      CHECK(a.nchannels == 2);
      const ir::Gpu& g = a.gpus[1];
      REQUIRE(g.threadBlocks.size() ==
              static_cast<size_t>(computeTbs + 2 * 7));  // per lane: local, 3 senders, 3 receivers
      for (int32_t h = 0; h < 2; ++h)
        for (int32_t i = 1; i < 7; ++i) {  // a lane's senders and receivers are on its channel
          const ir::ThreadBlock& tb = g.threadBlocks[static_cast<size_t>(computeTbs + h * 7 + i)];
          CHECK(tb.chan == h);
          for (const ir::Step& s : tb.steps)  // chunk c of a slice belongs to lane c % 2 (group 1)
            if (s.type == ir::OpType::Send || s.type == ir::OpType::Recv)
              CHECK((s.type == ir::OpType::Send ? s.srcoff : s.dstoff) % 4 % 2 == h);
        }
      checkVerified(a);
    }
  FusedParameters p = params(ir::ComputeOp::Gemv, 4, 4);
  p.lanes = 3;
  CHECK_THROWS_WITH(algorithms::fusedProgram(p),
                    Catch::Contains("lanes must divide the groups per destination (chunks / group = 4)"));
}

TEST_CASE("computetbs=0: each communication block computes what it sends, right before it, and it verifies") {
  for (ir::ComputeOp op : {ir::ComputeOp::Gemv, ir::ComputeOp::EmbeddingBag, ir::ComputeOp::Gemm})
    for (int32_t ranks : {2, 4}) {
      FusedParameters p = params(op, ranks, 2);
      p.computeTbs = 0;
      const ir::Algorithm a = algorithms::fusedProgram(p);
      for (const ir::Gpu& g : a.gpus) {
        int32_t computes = 0;
        for (const ir::ThreadBlock& tb : g.threadBlocks)
          for (size_t i = 0; i < tb.steps.size(); ++i) {
            const ir::Step& s = tb.steps[i];
            if (s.type != ir::OpType::Compute) continue;
            ++computes;
            CHECK_FALSE(s.hasdep);  // no other block waits for it
            REQUIRE(i + 1 < tb.steps.size());
            const ir::Step& use = tb.steps[i + 1];  // the send of the slice, or the copy of the own one
            CHECK((use.type == ir::OpType::Send || use.type == ir::OpType::Copy));
            CHECK(use.srcbuf == ir::Buffer::Input);
            CHECK(use.srcoff == s.dstoff);
            CHECK(use.depid == -1);
          }
        CHECK(computes == ranks * 2);
      }
      checkVerified(a);
    }
  FusedParameters p = params(ir::ComputeOp::Gemv, 4, 2);
  p.computeTbs = 0;
  p.bulkSynchronous = true;
  CHECK_THROWS_WITH(algorithms::fusedProgram(p), Catch::Contains("needs compute thread blocks"));
}

TEST_CASE("128 ranks: peers spread over channels within the runtime's 32 per channel, and it verifies") {
  FusedParameters p = params(ir::ComputeOp::EmbeddingBag, 128, 1);
  p.computeTbs = 2;  // 128 slices: 64 steps per compute block
  p.order = FusedOrder::RemoteFirst;
  const ir::Algorithm a = algorithms::fusedProgram(p);
  CHECK(a.nchannels == 4);
  for (const ir::Gpu& g : a.gpus) {
    std::vector<int32_t> senders(4, 0), receivers(4, 0);
    for (const ir::ThreadBlock& tb : g.threadBlocks) {
      if (tb.send >= 0) ++senders[static_cast<size_t>(tb.chan)];
      if (tb.recv >= 0) ++receivers[static_cast<size_t>(tb.chan)];
    }
    for (int32_t c = 0; c < 4; ++c) {
      CHECK(senders[static_cast<size_t>(c)] <= 32);
      CHECK(receivers[static_cast<size_t>(c)] <= 32);
    }
  }
  verify::Options o;
  o.profile = semantics::fusedProfile();
  o.maxCoResidentThreadBlocks = 300;  // 257 blocks per GPU
  const verify::FileReport r = verify::verifyAlgorithm(a, "<memory>", o, {});
  INFO(rulesOf(r) << r.error);
  CHECK(r.verdict == verify::Verdict::Verified);
  // With one compute block its 128 steps pass the executor's 64: refused, naming the knob.
  p.computeTbs = 1;
  CHECK_THROWS_WITH(algorithms::fusedProgram(p), Catch::Contains("128 steps") && Catch::Contains("computetbs"));
}
