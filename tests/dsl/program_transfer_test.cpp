#include <catch2/catch.hpp>

#include <memory>
#include <set>
#include <string>

#include "dsl/dsl_error.hpp"
#include "dsl/program.hpp"
#include "dsl/program_transfer.hpp"

using namespace ccforge;
using ir::Buffer;

namespace {

const char* const kScript = "script.py";

const char* keep(const std::string& file) {
  static std::set<std::string> names;
  return names.insert(file).first->c_str();
}

dsl::ProgramTransfer decode(std::string_view bytes) { return dsl::decodePrograms(bytes, keep); }

bool sameTrace(const dsl::Program& a, const dsl::Program& b) {
  if (a.trace().size() != b.trace().size()) return false;
  for (size_t i = 0; i < a.trace().size(); ++i) {
    const dsl::TraceOp &x = a.trace()[i], &y = b.trace()[i];
    auto same = [](const dsl::ChunkLocation& l, const dsl::ChunkLocation& m) {
      return l.rank == m.rank && l.buffer == m.buffer && l.index == m.index;
    };
    if (x.kind != y.kind || !same(x.src, y.src) || !same(x.dst, y.dst) || x.count != y.count ||
        x.directives.ch != y.directives.ch || x.directives.sendtb != y.directives.sendtb ||
        x.directives.recvtb != y.directives.recvtb || x.parallel != y.parallel ||
        std::string(x.where.file_name()) != y.where.file_name() || x.where.line() != y.where.line() ||
        x.where.column() != y.where.column())
      return false;
  }
  return true;
}

// A two-rank in-place allreduce with reduces, directives and a parallelized copy back.
std::shared_ptr<dsl::Program> allreduceOfTwo() {
  auto p = std::make_shared<dsl::Program>("two",
                                          dsl::CollectiveBinding{.type = semantics::CollectiveType::AllReduce,
                                                                 .ranks = 2,
                                                                 .chunkFactor = 2,
                                                                 .form = semantics::CallForm::InPlace},
                                          dsl::ProgramOptions{.protocol = ir::Protocol::LL, .instances = 2});
  for (int32_t k = 0; k < 2; ++k) {
    const int32_t from = k, to = 1 - k;
    auto sum = p->chunk(to, Buffer::Input, k, 1, {kScript, 10, 5})
                   .reduce(p->chunk(from, Buffer::Input, k, 1, {kScript, 11, 5}), {.ch = k}, {kScript, 12, 7});
    p->parallelize(2,
                   [&] {
                     sum.copy(from, Buffer::Input, k, {.ch = 0, .sendtb = 1}, {kScript, 14, 9});
                   },
                   {kScript, 13, 1});
  }
  return p;
}

dsl::ProgramTransfer one(std::shared_ptr<dsl::Program> p) {
  dsl::ProgramTransfer t;
  t.status = 3;
  t.message = "from the sender";
  t.programs.push_back(std::move(p));
  t.marked.emplace_back(0, dsl::SourcePos(kScript, 20, 1));
  t.last = 0;
  return t;
}

}  // namespace

TEST_CASE("programs cross as their traces: the same trace, postcondition and positions come back") {
  const auto original = allreduceOfTwo();
  REQUIRE(original->checkPostcondition().holds());
  const dsl::ProgramTransfer back = decode(dsl::encodePrograms(one(original)));
  CHECK(back.status == 3);
  CHECK(back.message == "from the sender");
  REQUIRE(back.programs.size() == 1);
  const dsl::Program& copy = *back.programs[0];
  CHECK(copy.name() == "two");
  CHECK(copy.options().protocol == ir::Protocol::LL);
  CHECK(copy.options().instances == 2);
  CHECK(copy.parallelFactors() == 2);
  CHECK(sameTrace(*original, copy));
  CHECK(copy.checkPostcondition().holds());
  REQUIRE(back.marked.size() == 1);
  CHECK(back.marked[0].first == 0);
  CHECK(back.marked[0].second.line() == 20);
  CHECK(std::string(back.marked[0].second.file_name()) == kScript);
  CHECK(back.last == 0);
}

TEST_CASE("a transfer with no program carries the sender's status and message") {
  dsl::ProgramTransfer none;
  none.status = 1;
  none.message = "script.py:3:1: error: wrong";
  const dsl::ProgramTransfer back = decode(dsl::encodePrograms(none));
  CHECK(back.status == 1);
  CHECK(back.message == none.message);
  CHECK(back.programs.empty());
  CHECK(back.marked.empty());
  CHECK(back.last == -1);
}

TEST_CASE("bytes that are not a whole transfer are refused, never read past their end") {
  const std::string good = dsl::encodePrograms(one(allreduceOfTwo()));
  const size_t magic = std::string_view("ccforge-programs-1").size();
  CHECK_NOTHROW(decode(good));
  CHECK_THROWS_AS(decode(""), dsl::TransferError);
  CHECK_THROWS_AS(decode("ccforge-programs-0" + good.substr(magic)), dsl::TransferError);
  for (size_t cut : {good.size() - 1, good.size() / 2, magic + 1})
    CHECK_THROWS_AS(decode(good.substr(0, cut)), dsl::TransferError);
  CHECK_THROWS_AS(decode(good + "x"), dsl::TransferError);
  // After the magic: the status (1 byte), the message's length (8) and text, then the number of
  // file names; a count no remaining bytes can hold is refused before anything is allocated.
  const std::string hugeCount = good.substr(0, magic + 1) + std::string(8, '\0') + std::string(8, '\xff');
  CHECK_THROWS_AS(decode(hugeCount), dsl::TransferError);
}

TEST_CASE("a forged trace is rebuilt through the DSL, which refuses what no program could do") {
  auto p = std::make_shared<dsl::Program>("x", dsl::CollectiveBinding{.type = semantics::CollectiveType::AllReduce,
                                                                      .ranks = 2,
                                                                      .chunkFactor = 1,
                                                                      .form = semantics::CallForm::InPlace});
  p->chunk(0, Buffer::Input, 0, 1, {kScript, 1, 1}).copy(1, Buffer::Scratch, 0, {}, {kScript, 1, 1});
  dsl::ProgramTransfer t = one(p);
  t.last = -1;
  std::string encoded = dsl::encodePrograms(t);
  // The one operation ends 36 bytes before the end (the marked list, 28 bytes, and the last
  // program's number, 8) and takes 51: kind 1, source 9, then the destination's rank.
  const size_t destinationRank = encoded.size() - 36 - 51 + 1 + 9;
  REQUIRE(encoded[destinationRank] == 1);
  CHECK_NOTHROW(decode(encoded));
  encoded[destinationRank] = 7;  // a rank the two-rank program does not have
  CHECK_THROWS_AS(decode(encoded), dsl::DslError);
}
