#include <catch2/catch.hpp>

#include "runtime/loader.hpp"
#include "runtime/samples/sample_programs.hpp"
#include "ir/reader.hpp"

using namespace ccforge;
using namespace ccforge::runtime;

namespace {

std::string step(int s, const char* type, const char* src, int srcoff, const char* dst, int dstoff, int cnt,
                 int depid = -1, int deps = -1, int hasdep = 0) {
  return "      <step s=\"" + std::to_string(s) + "\" type=\"" + type + "\" srcbuf=\"" + src + "\" srcoff=\"" +
         std::to_string(srcoff) + "\" dstbuf=\"" + dst + "\" dstoff=\"" + std::to_string(dstoff) + "\" cnt=\"" +
         std::to_string(cnt) + "\" depid=\"" + std::to_string(depid) + "\" deps=\"" + std::to_string(deps) +
         "\" hasdep=\"" + std::to_string(hasdep) + "\"/>\n";
}

// A two-rank allreduce file whose rank 0 has `rank0` as its tbs; rank 1 is a plain partner.
std::string file(const std::string& rank0, const std::string& coll = "allreduce", int scratch = 0) {
  return "<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"" + coll +
         "\" inplace=\"0\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n"
         "  <gpu id=\"0\" i_chunks=\"2\" o_chunks=\"2\" s_chunks=\"" +
         std::to_string(scratch) + "\">\n" + rank0 +
         "  </gpu>\n"
         "  <gpu id=\"1\" i_chunks=\"2\" o_chunks=\"2\" s_chunks=\"0\">\n"
         "    <tb id=\"0\" send=\"-1\" recv=\"-1\" chan=\"0\">\n" +
         step(0, "cpy", "i", 0, "o", 0, 2) +
         "    </tb>\n"
         "  </gpu>\n</algo>\n";
}

std::string tb(int id, int send, int recv, const std::string& steps, int chan = 0) {
  return "    <tb id=\"" + std::to_string(id) + "\" send=\"" + std::to_string(send) + "\" recv=\"" +
         std::to_string(recv) + "\" chan=\"" + std::to_string(chan) + "\">\n" + steps + "    </tb>\n";
}

ExecutableProgram compile(const std::string& xml) {
  return loadExecutable(ir::readAlgorithm(xml, "t.xml").algorithm, "t.xml", {});
}

}  // namespace

TEST_CASE("the loader rejects accesses outside a buffer, naming rank, tb, step and the file position") {
  try {
    compile(file(tb(0, -1, -1, step(0, "cpy", "i", 1, "o", 0, 2))));
    FAIL("an out-of-bounds source was accepted");
  } catch (const ProgramRejected& e) {
    CHECK_FALSE(e.unsupported());
    CHECK(e.where().line == 4);
    CHECK_THAT(e.what(), Catch::Contains("t.xml:4:") && Catch::Contains("rank 0 tb 0 step 0 (cpy)") &&
                             Catch::Contains("source chunks [1, 3) are outside the input buffer of 2 chunks"));
  }
  CHECK_THROWS_WITH(compile(file(tb(0, -1, -1, step(0, "cpy", "i", 0, "s", 0, 1)))),
                    Catch::Contains("destination chunks [0, 1) are outside the scratch buffer of 0 chunks"));
  CHECK_THROWS_WITH(compile(file(tb(0, -1, -1, step(0, "cpy", "i", -1, "o", 0, 1)))),
                    Catch::Contains("source chunks [-1, 0)"));
}

TEST_CASE("the loader rejects what would corrupt FIFOs or wait on nothing") {
  const std::string send = step(0, "s", "i", 0, "o", 0, 1);
  CHECK_THROWS_WITH(compile(file(tb(0, 1, -1, send) + tb(1, 1, -1, send))),
                    Catch::Contains("rank 0 tb 1 and tb 0 both send on connection 0->1 ch 0"));
  CHECK_NOTHROW(compile(file(tb(0, 1, -1, send) + tb(1, 1, -1, send, 1))));  // another channel is another FIFO
  CHECK_THROWS_WITH(
      compile(file(tb(0, -1, 1, step(0, "r", "i", 0, "o", 0, 1)) + tb(1, -1, 1, step(0, "r", "i", 0, "o", 1, 1)))),
      Catch::Contains("both receive on connection 1->0 ch 0"));
  CHECK_THROWS_WITH(compile(file(tb(0, -1, -1, send))), Catch::Contains("'s' sends, but the thread block has send=-1"));
  CHECK_THROWS_WITH(compile(file(tb(0, 0, -1, send))), Catch::Contains("send=0 is the block's own rank"));
  CHECK_THROWS_WITH(compile(file(tb(0, 2, -1, send))), Catch::Contains("send=2 is not a rank"));
  CHECK_THROWS_WITH(compile(file(tb(0, -1, -1, step(0, "cpy", "i", 0, "o", 0, 1, 3, 0)))),
                    Catch::Contains("depid=3 names no thread block of gpu 0"));
  CHECK_THROWS_WITH(compile(file(tb(0, -1, -1, step(0, "cpy", "i", 0, "o", 0, 1, 0, 1)))),
                    Catch::Contains("deps=1 but tb 0 has 1 steps"));
  CHECK_THROWS_WITH(compile(file(tb(0, -1, -1, step(0, "cpy", "i", 0, "o", 0, 0)))),
                    Catch::Contains("cnt=0 moves nothing"));
  CHECK_THROWS_WITH(compile(file(tb(1, -1, -1, step(0, "cpy", "i", 0, "o", 0, 1)))),
                    Catch::Contains("tb id=1 is outside 0..0"));
}

TEST_CASE("collectives without a definition in the file are unsupported, not unsafe") {
  try {
    compile(file(tb(0, -1, -1, step(0, "cpy", "i", 0, "o", 0, 1)), "custom"));
    FAIL("a custom collective was accepted");
  } catch (const ProgramRejected& e) {
    CHECK(e.unsupported());
    CHECK_THAT(e.what(), Catch::Contains("coll=\"custom\""));
  }
}

// msccl_parser.cc: a chain continues while the destination and the source buffer stay the same
// and the step has no dependency; it ends after a step with hasdep=1.
TEST_CASE("consecutive re steps fuse as the executor's parser fuses them, keeping the last cnt") {
  const std::string chain = step(0, "re", "s", 0, "o", 0, 1, -1, -1, 1) +  // hasdep: ends its chain at once
                            step(1, "re", "s", 1, "o", 0, 1) +
                            step(2, "re", "s", 2, "o", 0, 1, -1, -1, 0) +  // continues step 1
                            step(3, "re", "s", 3, "o", 0, 1, 0, 0) +       // has its own dependency: starts a new step
                            step(4, "re", "i", 0, "o", 0, 1) +             // other source buffer: new step
                            step(5, "re", "i", 1, "o", 1, 1);              // other destination: new step
  const ExecutableProgram p = compile(file(tb(0, -1, -1, chain), "allreduce", 4));
  const auto& steps = p.steps();
  REQUIRE(p.tbs()[0].stepCount == 5);
  CHECK(steps[0].reduceSourceCount == 1);
  CHECK(steps[0].publishes == 1);
  CHECK(steps[0].flagStep == 0);
  CHECK(steps[1].reduceSourceCount == 2);
  CHECK(steps[1].flagStep == 2);  // the flag of a fused step says "its last member done"
  CHECK(steps[1].publishes == 0);
  CHECK(p.originalStep(1) == 1);
  CHECK(p.reduceSourceOffsets()[steps[1].firstReduceSource + 1] == 2);
  CHECK(steps[2].reduceSourceCount == 1);
  CHECK(steps[2].dependencyTb == 0);
  CHECK(p.originalStep(2) == 3);
  CHECK(p.originalStep(3) == 4);
  CHECK(p.originalStep(4) == 5);
}

TEST_CASE("a fused re chain is bounds-checked with its last cnt, and holds at most 16 sources") {
  CHECK_THROWS_WITH(
      compile(file(tb(0, -1, -1, step(0, "re", "s", 0, "o", 0, 1) + step(1, "re", "s", 1, "o", 0, 2)), "allreduce", 2)),
      Catch::Contains("step 1 (re): source chunks [1, 3) are outside the scratch buffer"));
  std::string chain;
  for (int s = 0; s < 17; ++s) chain += step(s, "re", "s", s, "o", 0, 1);
  const ExecutableProgram p = compile(file(tb(0, -1, -1, chain), "allreduce", 17));
  REQUIRE(p.tbs()[0].stepCount == 2);
  CHECK(p.steps()[0].reduceSourceCount == 16);
  CHECK(p.steps()[1].reduceSourceCount == 1);
}

TEST_CASE("connections pair each sender tb with the receiver tb of the same (sender, receiver, channel)") {
  samples::SampleOptions o;
  o.channels = 2;
  const ir::Algorithm ring = samples::ringAllReduce(4, o);
  const ExecutableProgram p = loadExecutable(ring, "ring", {});
  REQUIRE(p.connections().size() == 8);
  for (const ConnectionTable& c : p.connections()) {
    CHECK(c.receiver == (c.sender + 1) % 4);
    REQUIRE(c.senderTb >= 0);
    REQUIRE(c.receiverTb >= 0);
    CHECK(p.tbs()[c.senderTb].rank == c.sender);
    CHECK(p.tbs()[c.receiverTb].rank == c.receiver);
    CHECK(p.tbs()[c.senderTb].tb == c.channel);
  }
  CHECK(p.firstTbOf(3) == 6);
  CHECK(p.tbs().size() == 8);
}

TEST_CASE("a verifier passed to the loader decides whether the program loads") {
  const ir::Algorithm ring = samples::ringAllReduce(2, {});
  int calls = 0;
  const Verifier reject = [&](const ir::Algorithm& a, const std::string& source) {
    ++calls;
    CHECK(a.ngpus == 2);
    CHECK(source == "ring.xml");
    return VerificationOutcome{false, "postcondition violated at rank 0"};
  };
  LoadOptions options;
  options.verifier = &reject;
  CHECK_THROWS_WITH(
      loadExecutable(ring, "ring.xml", options),
      Catch::Contains("ring.xml: verification at load failed") && Catch::Contains("postcondition violated at rank 0"));
  const Verifier accept = [&](const ir::Algorithm&, const std::string&) { return VerificationOutcome{true, ""}; };
  options.verifier = &accept;
  CHECK_NOTHROW(loadExecutable(ring, "ring.xml", options));
  CHECK(calls == 1);
}
