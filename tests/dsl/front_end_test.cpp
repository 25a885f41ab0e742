// What the DSL offers front ends other than C++ (the Python front end, docs/python.md): call
// positions they supply themselves, aliasing queries, and a custom postcondition decided after
// the trace.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "dsl/dsl_error.hpp"
#include "dsl/program.hpp"

using namespace ccforge;
using ir::Buffer;

TEST_CASE("a call position given by the caller is what errors and the trace report") {
  dsl::Program p("fe", {.type = semantics::CollectiveType::AllReduce,
                        .ranks = 3,
                        .chunkFactor = 1,
                        .form = semantics::CallForm::OutOfPlace});
  const dsl::SourcePos first("script.py", 7, 5);
  auto c = p.chunk(0, Buffer::Input, 0, 1, first);
  c.copy(1, Buffer::Output, 0, {}, dsl::SourcePos("script.py", 8, 1));
  REQUIRE(p.trace().size() == 1);
  CHECK(std::string(p.trace()[0].where.file_name()) == "script.py");
  CHECK(p.trace()[0].where.line() == 8);
  try {
    p.chunk(2, Buffer::Output, 0, 1, dsl::SourcePos("script.py", 12, 3));
    FAIL("no DslError");
  } catch (const dsl::DslError& e) {
    CHECK(e.where().line() == 12);
    CHECK(e.where().column() == 3);
    // The compilers' diagnostic format, at the position the caller gave (base/diagnostic.hpp).
    CHECK_THAT(std::string(e.what()),
               Catch::StartsWith("script.py:12:3: error: chunk(rank 2 output[0]): reads an uninitialised chunk"));
  }
}

TEST_CASE("sharesMemory follows the in-place aliasing of the collective") {
  dsl::Program ag("ag", {.type = semantics::CollectiveType::AllGather,
                         .ranks = 4,
                         .chunkFactor = 1,
                         .form = semantics::CallForm::InPlace});
  // In place, rank 2's input chunk 0 is its output chunk 2.
  CHECK(ag.sharesMemory({2, Buffer::Input, 0}, 1, {2, Buffer::Output, 2}, 1));
  CHECK_FALSE(ag.sharesMemory({2, Buffer::Input, 0}, 1, {2, Buffer::Output, 0}, 1));
  CHECK_FALSE(ag.sharesMemory({2, Buffer::Input, 0}, 1, {1, Buffer::Output, 2}, 1));  // other rank
  CHECK_FALSE(ag.sharesMemory({9, Buffer::Input, 0}, 1, {9, Buffer::Output, 2}, 1));  // no such rank
  dsl::Program ar("ar", {.type = semantics::CollectiveType::AllReduce,
                         .ranks = 2,
                         .chunkFactor = 2,
                         .form = semantics::CallForm::OutOfPlace});
  CHECK_FALSE(ar.sharesMemory({0, Buffer::Input, 1}, 1, {0, Buffer::Output, 1}, 1));
}

TEST_CASE("a custom postcondition replaced after the trace is what the program is checked against") {
  semantics::CustomCollectiveSpec spec{"next", 2, 1, 1, std::nullopt, {}};
  dsl::CollectiveBinding binding{
      .type = semantics::CollectiveType::Custom, .ranks = 2, .chunkFactor = 1, .custom = spec};
  dsl::Program p("next", binding);
  p.chunk(0, Buffer::Input, 0).copy(1, Buffer::Output, 0);
  CHECK(p.checkPostcondition().holds());  // nothing required yet
  p.replaceCustomPostcondition({semantics::ChunkMapEntry{1, 0, {semantics::Atom{0, 0}}}});
  CHECK(p.checkPostcondition().holds());
  p.replaceCustomPostcondition({semantics::ChunkMapEntry{1, 0, {semantics::Atom{1, 0}}}});
  CHECK(p.checkPostcondition().mismatches == 1);
  CHECK_THROWS_AS(p.replaceCustomPostcondition({semantics::ChunkMapEntry{5, 0, {semantics::Atom{0, 0}}}}),
                  std::invalid_argument);
  // The spec at a finer granularity (instances), as the verifier gets it.
  const auto refined = p.binding().refinedCustom(2);
  REQUIRE(refined);
  CHECK(refined->outputChunks == 2);
  REQUIRE(refined->post.size() == 2);
  CHECK(refined->post[1].index == 1);
  CHECK(refined->post[1].value.front().index == 1);
  dsl::Program builtin("ar", {.type = semantics::CollectiveType::AllReduce, .ranks = 2, .chunkFactor = 1});
  CHECK_THROWS_AS(builtin.replaceCustomPostcondition({}), std::invalid_argument);
  CHECK_FALSE(builtin.binding().refinedCustom(2));
}
