// `ccforge select`'s library (verify/select_call.hpp) on tests/fixtures/verify-dirs/select_sweep,
// with answers derived by hand from the selectors' source (the rules are spelled out at the top of
// tests/e2e/select.cmake; the files' headers there too). The sweep below runs every combination of
// collective, data type, call form and count listed and checks each against a hand-written table.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "base/input_error.hpp"
#include "ir/names.hpp"
#include "support/temp_dir.hpp"
#include "support/verify_support.hpp"
#include "verify/select_call.hpp"

#include <fstream>

using namespace ccforge;
using ir::CollectiveKind;

namespace {

std::string sweepDir() { return test::fixture("verify-dirs/select_sweep").string(); }

verify::SelectRequest request(CollectiveKind coll, const char* type, semantics::CallForm form, uint64_t count,
                              std::optional<int32_t> root = std::nullopt) {
  verify::SelectRequest r;
  r.coll = coll;
  r.type = semantics::findNcclDataType(type);
  r.form = form;
  r.count = count;
  r.root = root;
  return r;
}

// "a", "b", ... for the file each rank runs, "-" for NCCL, "?" when not determined.
std::string outcome(const verify::SelectorAnswer& a) {
  if (!a.determined) return "?";
  if (!a.runs) return "-";
  const std::string name = a.runs->substr(a.runs->find_last_of('/') + 1);
  return name.substr(0, 1);
}

struct Row {
  CollectiveKind coll;
  const char* type;
  semantics::CallForm form;
  uint64_t count;
  const char* executor;  // expected outcome under the internal scheduler
  const char* plugin;    // and under the msccl-scheduler plugin
};

}  // namespace

TEST_CASE("select: the sweep of collective, data type, call form and count agrees with the hand-derived table") {
  const semantics::CallForm in = semantics::CallForm::InPlace, out = semantics::CallForm::OutOfPlace;
  const CollectiveKind ar = CollectiveKind::AllReduce, ag = CollectiveKind::AllGather, bc = CollectiveKind::Broadcast;
  // a: allreduce 48 chunks in-place 0..1 MiB; b: allreduce 2 chunks out-of-place 0..; c: allgather
  // 3 ranks 3 chunks in-place 0..; d: broadcast 1 chunk out-of-place 0..; e: allreduce 2 chunks
  // out-of-place 1 MiB+1..
  const std::vector<Row> rows = {
      {ar, "float32", in, 48, "a", "a"},      // 192 B
      {ar, "float32", in, 144, "a", "a"},     // no power of two
      {ar, "float32", in, 100, "-", "-"},     // 100 % 48
      {ar, "float32", in, 262144, "-", "-"},  // 1 MiB, but 262144 % 48 = 16
      {ar, "float32", in, 262128, "a", "a"},  // 5461 x 48, 1048512 B
      {ar, "float32", in, 262176, "-", "-"},  // 5462 x 48, 1048704 B > 1 MiB
      {ar, "bfloat16", in, 48, "a", "-"},     // plugin: 2^64 - 48 bytes > maxBytes
      {ar, "fp8e4m3", in, 96, "a", "-"},
      {ar, "float16", in, 96, "a", "a"},  // the plugin knows float16
      {ar, "float32", out, 1000, "b", "b"},
      {ar, "float32", out, 999, "-", "-"},
      {ar, "float32", out, 262144, "b", "b"},  // 1 MiB: e starts one byte later
      {ar, "float32", out, 262146, "b", "?"},  // 1048584 B: b and e both accept
      {ar, "bfloat16", out, 1000, "b", "?"},   // plugin: 2^64 - 1000 bytes is in e's window too
      {ar, "int8", out, 2097152, "b", "?"},
      {ag, "float32", in, 1, "c", "-"},  // executor: (1 x 3) % 3; plugin: 1 % 3
      {ag, "float32", in, 5, "c", "-"},
      {ag, "float32", in, 6, "c", "c"},
      {ag, "float64", in, 3000, "c", "c"},
      {ag, "bfloat16", in, 6, "c", "?"},  // plugin: rank 0 in-place (c), ranks 1, 2 out-of-place (NCCL)
      {ag, "fp8e5m2", in, 7, "c", "-"},   // plugin: 7 % 3 on every rank
      {ag, "bfloat16", out, 6, "-", "-"},
      {ag, "float32", out, 6, "-", "-"},
      {bc, "float32", out, 7, "d", "d"},
      {bc, "bfloat16", out, 7, "d", "d"},  // maxBytes=0: the -1 size fits
      {bc, "float32", in, 7, "-", "-"},
  };
  for (const Row& row : rows) {
    CAPTURE(ir::collectiveName(row.coll), row.type, callFormName(row.form), row.count);
    const auto answers = verify::selectCall(sweepDir(), request(row.coll, row.type, row.form, row.count),
                                            {semantics::Selector::Internal, semantics::Selector::External});
    REQUIRE(answers.size() == 2);
    CHECK(outcome(answers[0]) == row.executor);
    CHECK(outcome(answers[1]) == row.plugin);
  }
}

TEST_CASE("select: the plugin's bfloat16 in-place allgather splits the ranks") {
  const auto answers =
      verify::selectCall(sweepDir(), request(CollectiveKind::AllGather, "bfloat16", semantics::CallForm::InPlace, 6),
                         {semantics::Selector::External});
  REQUIRE(answers.size() == 1);
  const verify::SelectorAnswer& a = answers[0];
  CHECK(a.ranks == 3);
  CHECK(a.selectorTypeSize == -1);
  CHECK(a.selectorBytes == 18446744073709551598ull);  // 2^64 - 6 x 3
  REQUIRE(a.choices.size() == 2);
  CHECK(a.choices[0].ranks == std::vector<int32_t>{0});
  CHECK(a.choices[0].seen == semantics::CallForm::InPlace);
  CHECK(a.choices[0].takers.size() == 1);
  CHECK(a.choices[1].ranks == std::vector<int32_t>{1, 2});
  CHECK(a.choices[1].seen == semantics::CallForm::OutOfPlace);
  CHECK(a.choices[1].takers.empty());
  CHECK_FALSE(a.determined);
}

TEST_CASE("select: a root is not compared; bytes, ranks and roots are checked") {
  const auto rooted = verify::selectCall(
      sweepDir(), request(CollectiveKind::Broadcast, "float32", semantics::CallForm::OutOfPlace, 7, 1),
      {semantics::Selector::Internal, semantics::Selector::External});
  REQUIRE(rooted.size() == 2);
  for (const verify::SelectorAnswer& a : rooted) {
    CHECK(outcome(a) == "d");
    REQUIRE(a.notes.size() == 1);
    CHECK(a.notes[0].find("neither selector compares the root") != std::string::npos);
  }
  verify::SelectRequest bytes = request(CollectiveKind::AllGather, "float32", semantics::CallForm::InPlace, 0);
  bytes.count.reset();
  bytes.bytes = 72;  // 6 x 4 bytes x 3 ranks
  const auto fromBytes = verify::selectCall(sweepDir(), bytes, {semantics::Selector::Internal});
  REQUIRE(fromBytes.size() == 1);
  CHECK(fromBytes[0].count == 6);
  bytes.bytes = 70;
  CHECK_THROWS_AS(verify::selectCall(sweepDir(), bytes, {semantics::Selector::Internal}), std::invalid_argument);
  CHECK_THROWS_AS(
      verify::selectCall(sweepDir(), request(CollectiveKind::AllReduce, "float32", semantics::CallForm::InPlace, 48, 0),
                         {semantics::Selector::Internal}),
      std::invalid_argument);
  verify::SelectRequest badRoot = request(CollectiveKind::Broadcast, "float32", semantics::CallForm::OutOfPlace, 7, 2);
  badRoot.ranks = 2;
  CHECK_THROWS_AS(verify::selectCall(sweepDir(), badRoot, {semantics::Selector::Internal}), std::invalid_argument);
  // A stray entry is an input error: verify says what the runtimes do with it.
  test::TempDir d("select_stray");
  std::ofstream(d.path / "notes.txt") << "not xml\n";
  CHECK_THROWS_AS(verify::selectCall(d.path.string(),
                                     request(CollectiveKind::AllReduce, "float32", semantics::CallForm::InPlace, 48),
                                     {semantics::Selector::Internal}),
                  base::InputError);
}
