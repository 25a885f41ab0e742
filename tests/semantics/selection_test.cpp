// The selection model (semantics/selection.hpp) against the selectors' sources, with values worked
// out by hand from the cited lines:
//   internal  msccl-executor msccl_lifecycle.cc:330-335  (count*m) % n == 0, minBytes <= bytes <= maxBytes (0:
//   unbounded) external  msccl-scheduler scheduler.cc:212-215       count % n == 0, same window legacy microsoft/msccl
//   tuning.cc:364-366, all_to_all.cc:85-88, argcheck.cc:47-52, topo.cc:790-820
//             (int) total % n == 0, minBytes <= bytes < maxBytes (absent: 128 MiB)
#include <catch2/catch.hpp>

#include "semantics/selection.hpp"

using namespace ccforge;
using ir::CollectiveKind;

namespace {

ir::Algorithm header(CollectiveKind coll, const char* collName, int32_t ranks, int32_t chunks,
                     std::optional<int64_t> minBytes = 0, std::optional<int64_t> maxBytes = 0) {
  ir::Algorithm a;
  a.coll = coll;
  a.collName = collName;
  a.ngpus = ranks;
  a.nchunksperloop = chunks;
  a.inplace = false;
  a.outofplace = true;
  a.minBytes = minBytes;
  a.maxBytes = maxBytes;
  return a;
}

semantics::SelectionCall call(CollectiveKind coll, int32_t ranks, uint64_t count, int32_t typeSize = 4,
                              semantics::CallForm form = semantics::CallForm::OutOfPlace) {
  return semantics::SelectionCall{coll, ranks, form, typeSize, count};
}

bool anyConsideredCall(semantics::Selector s, const ir::Algorithm& a) {
  for (const semantics::SelectionCall& c : consideredCalls(s, a.coll, a.ngpus))
    if (accepts(s, a, c)) return true;
  return false;
}

}  // namespace

TEST_CASE("selection: the internal scheduler scales the count by the rank count, the external one does not") {
  // 8-rank allgather, 16 chunks per loop (synth's dgx1 c2-s2-r3): count 2 gives 2*8 = 16.
  const ir::Algorithm a = header(CollectiveKind::AllGather, "allgather", 8, 16);
  CHECK(accepts(semantics::Selector::Internal, a, call(CollectiveKind::AllGather, 8, 2)));
  CHECK(rejection(semantics::Selector::External, a, call(CollectiveKind::AllGather, 8, 2)) ==
        semantics::Rejection::Divisibility);
  CHECK(rejection(semantics::Selector::External, a, call(CollectiveKind::AllGather, 8, 8)) ==
        semantics::Rejection::Divisibility);
  CHECK(accepts(semantics::Selector::External, a, call(CollectiveKind::AllGather, 8, 16)));
  // nBytes = count * typesize * ranks: 16 * 4 * 8.
  CHECK(callBytes(call(CollectiveKind::AllGather, 8, 16)) == 512);
  CHECK(callBytes(call(CollectiveKind::AllReduce, 8, 16)) == 64);
}

TEST_CASE("selection: 48 chunks per loop divide no power-of-two count under any selector") {
  const ir::Algorithm dgx1 = header(CollectiveKind::AllGather, "allgather", 8, 48);
  CHECK_FALSE(anyConsideredCall(semantics::Selector::Internal, dgx1));
  CHECK_FALSE(anyConsideredCall(semantics::Selector::External, dgx1));
  // 3-rank allgather with 3 chunks per loop: count*3 % 3 == 0 always, count % 3 never.
  const ir::Algorithm ring3 = header(CollectiveKind::AllGather, "allgather", 3, 3);
  CHECK(anyConsideredCall(semantics::Selector::Internal, ring3));
  CHECK_FALSE(anyConsideredCall(semantics::Selector::External, ring3));
}

TEST_CASE("selection: the executor's window is inclusive, maxBytes=0 unbounded, compared unsigned") {
  const ir::Algorithm a = header(CollectiveKind::AllReduce, "allreduce", 2, 2, 1024, 1 << 20);
  CHECK(rejection(semantics::Selector::Internal, a, call(CollectiveKind::AllReduce, 2, 128)) ==
        semantics::Rejection::Window);                                                            // 512 B
  CHECK(accepts(semantics::Selector::Internal, a, call(CollectiveKind::AllReduce, 2, 256)));      // 1 KiB
  CHECK(accepts(semantics::Selector::Internal, a, call(CollectiveKind::AllReduce, 2, 1 << 18)));  // 1 MiB
  CHECK(rejection(semantics::Selector::Internal, a, call(CollectiveKind::AllReduce, 2, 1 << 19)) ==
        semantics::Rejection::Window);
  const ir::Algorithm unbounded = header(CollectiveKind::AllReduce, "allreduce", 2, 2, 0, 0);
  CHECK(accepts(semantics::Selector::External, unbounded, call(CollectiveKind::AllReduce, 2, uint64_t{1} << 36)));
  // size_t >= int64_t: a negative minBytes converts to a huge bound that no size reaches.
  const ir::Algorithm negative = header(CollectiveKind::AllReduce, "allreduce", 2, 2, -1, 0);
  CHECK_FALSE(anyConsideredCall(semantics::Selector::Internal, negative));
}

TEST_CASE("selection: the legacy window excludes maxBytes, defaults to 128 MiB and reads maxBytes=0 literally") {
  const ir::Algorithm a = header(CollectiveKind::AllReduce, "allreduce", 2, 2, 0, 1 << 20);
  CHECK(accepts(semantics::Selector::Legacy, a, call(CollectiveKind::AllReduce, 2, 1 << 17)));  // 512 KiB
  CHECK(rejection(semantics::Selector::Legacy, a, call(CollectiveKind::AllReduce, 2, 1 << 18)) ==
        semantics::Rejection::Window);  // 1 MiB
  const ir::Algorithm absent = header(CollectiveKind::AllReduce, "allreduce", 2, 2, std::nullopt, std::nullopt);
  CHECK(accepts(semantics::Selector::Legacy, absent, call(CollectiveKind::AllReduce, 2, 1 << 24)));  // 64 MiB
  CHECK(rejection(semantics::Selector::Legacy, absent, call(CollectiveKind::AllReduce, 2, 1 << 25)) ==
        semantics::Rejection::Window);
  CHECK_FALSE(
      anyConsideredCall(semantics::Selector::Legacy, header(CollectiveKind::AllReduce, "allreduce", 2, 2, 0, 0)));
  // minBytes > maxBytes: the file does not load.
  CHECK(rejection(semantics::Selector::Legacy, header(CollectiveKind::AllReduce, "allreduce", 2, 2, 1 << 20, 0),
                  call(CollectiveKind::AllReduce, 2, 1)) == semantics::Rejection::NotLoaded);
}

TEST_CASE("selection: the legacy runtime divides allgather and broadcast sizes in bytes, in an int") {
  // argcheck.cc turns allgather counts into bytes before tuning.cc multiplies by the ranks:
  // 1 element of 4 bytes on 2 ranks is 8, which 8 chunks divide; the executor tests 1*2.
  const ir::Algorithm ag = header(CollectiveKind::AllGather, "allgather", 2, 8, 0, 1 << 20);
  CHECK(accepts(semantics::Selector::Legacy, ag, call(CollectiveKind::AllGather, 2, 1)));
  CHECK(rejection(semantics::Selector::Internal, ag, call(CollectiveKind::AllGather, 2, 1)) ==
        semantics::Rejection::Divisibility);
  const ir::Algorithm bc = header(CollectiveKind::Broadcast, "broadcast", 2, 8, 0, 1 << 20);
  CHECK(accepts(semantics::Selector::Legacy, bc, call(CollectiveKind::Broadcast, 2, 2)));  // 2 * 4 bytes
  // allreduce count 2^32: the int total wraps to 0, which 3 divides.
  const ir::Algorithm big = header(CollectiveKind::AllReduce, "allreduce", 2, 3, 0, int64_t{1} << 34);
  CHECK(accepts(semantics::Selector::Legacy, big, call(CollectiveKind::AllReduce, 2, uint64_t{1} << 32, 1)));
  CHECK(rejection(semantics::Selector::Internal, big, call(CollectiveKind::AllReduce, 2, uint64_t{1} << 32, 1)) ==
        semantics::Rejection::Divisibility);
}

TEST_CASE("selection: the call forms each selector sees") {
  // Legacy: one `inplace` flag; alltoall refuses in-place calls and ignores the flag.
  ir::Algorithm a2a = header(CollectiveKind::AllToAll, "alltoall", 4, 4, 0, 1 << 20);
  a2a.inplace = true;
  a2a.outofplace = false;
  CHECK(accepts(semantics::Selector::Legacy, a2a, call(CollectiveKind::AllToAll, 4, 1)));
  for (const semantics::SelectionCall& c : consideredCalls(semantics::Selector::Legacy, CollectiveKind::AllToAll, 4))
    CHECK(c.form == semantics::CallForm::OutOfPlace);
  CHECK(rejection(semantics::Selector::Internal, a2a, call(CollectiveKind::AllToAll, 4, 1)) ==
        semantics::Rejection::CallForm);
  // The executor never calls send or recv in place.
  for (const semantics::SelectionCall& c : consideredCalls(semantics::Selector::Internal, CollectiveKind::Send, 2))
    CHECK(c.form == semantics::CallForm::OutOfPlace);
}

TEST_CASE("selection: calls that never reach a selector, and headers it does not load") {
  CHECK(consideredCalls(semantics::Selector::Internal, CollectiveKind::Gather, 4).empty());
  CHECK(consideredCalls(semantics::Selector::External, CollectiveKind::AllToAllV, 4).empty());
  CHECK(
      consideredCalls(semantics::Selector::Legacy, CollectiveKind::AllReduce, 1).empty());  // one rank runs NCCL's ring
  CHECK_FALSE(consideredCalls(semantics::Selector::Internal, CollectiveKind::AllReduce, 1).empty());
  CHECK(rejection(semantics::Selector::Internal, header(CollectiveKind::ReduceScatter, "reduce_scatter", 2, 2),
                  call(CollectiveKind::ReduceScatter, 2, 1)) == semantics::Rejection::NotLoaded);
  CHECK(rejection(semantics::Selector::Legacy, header(CollectiveKind::ReduceScatter, "reducescatter", 2, 2, 0, 1 << 20),
                  call(CollectiveKind::ReduceScatter, 2, 1)) == semantics::Rejection::NotLoaded);
}

TEST_CASE("selection: the considered calls are power-of-two counts up to 256 GiB for 1-, 2-, 4- and 8-byte types") {
  const auto calls = consideredCalls(semantics::Selector::Internal, CollectiveKind::AllGather, 8);
  uint64_t largest1 = 0, largest8 = 0;
  size_t inPlace = 0;
  for (const semantics::SelectionCall& c : calls) {
    CHECK((c.count & (c.count - 1)) == 0);
    CHECK(callBytes(c) <= uint64_t{1} << 38);
    if (c.typeSize == 1) largest1 = std::max(largest1, c.count);
    if (c.typeSize == 8) largest8 = std::max(largest8, c.count);
    inPlace += c.form == semantics::CallForm::InPlace;
  }
  CHECK(largest1 == uint64_t{1} << 35);  // 2^35 * 1 * 8 = 2^38
  CHECK(largest8 == uint64_t{1} << 32);
  // Per form: counts 2^0..2^35, 2^34, 2^33, 2^32 for the four sizes: 36+35+34+33 calls.
  CHECK(inPlace == 138);
  CHECK(calls.size() == 276);
}

// Every count, solved arithmetically (acceptedCounts). Expected values worked out by hand from the
// tests above: the counts are the multiples of n / gcd(n, factor) whose bytes lie in the window.
TEST_CASE("selection: every count, not only powers of two: msccl-scheduler's ndv5 ap2ll.xml") {
  // allreduce, 8 ranks, nchunksperloop 128, window 32769..40959 bytes, in-place.
  ir::Algorithm ap2ll = header(CollectiveKind::AllReduce, "allreduce", 8, 128, 32769, 40959);
  ap2ll.inplace = true;
  ap2ll.outofplace = false;
  const semantics::SelectionCall shape = call(CollectiveKind::AllReduce, 8, 0, 4, semantics::CallForm::InPlace);
  for (semantics::Selector s : {semantics::Selector::Internal, semantics::Selector::External}) {
    // Multiples of 128 with 4 bytes each: 32769..40959 bytes holds 8320 (65 x 128, 33280 B) to
    // 10112 (79 x 128, 40448 B); 8192 (32768 B) is one byte short and 10240 (40960 B) one over.
    const auto counts = acceptedCounts(s, ap2ll, shape, semantics::maxConsideredCount(CollectiveKind::AllReduce, 8, 4));
    REQUIRE(counts);
    CHECK(counts->first == 8320);
    CHECK(counts->last == 10112);
    CHECK(counts->step == 128);
    CHECK_FALSE(anyConsideredCall(s, ap2ll));  // no power-of-two count: the old test called it dead
  }
  // 1-byte types: from 32896 (257 x 128; 256 x 128 is 32768 bytes) to 40832 (319 x 128).
  const auto bytes1 = acceptedCounts(semantics::Selector::Internal, ap2ll,
                                     call(CollectiveKind::AllReduce, 8, 0, 1, semantics::CallForm::InPlace),
                                     semantics::maxConsideredCount(CollectiveKind::AllReduce, 8, 1));
  REQUIRE(bytes1);
  CHECK(bytes1->first == 32896);
  CHECK(bytes1->last == 40832);  // 320 x 128 = 40960 > 40959
  // Out-of-place calls: the file does not serve them.
  CHECK_FALSE(acceptedCounts(semantics::Selector::Internal, ap2ll,
                             call(CollectiveKind::AllReduce, 8, 0, 4, semantics::CallForm::OutOfPlace),
                             semantics::maxConsideredCount(CollectiveKind::AllReduce, 8, 4)));
}

TEST_CASE("selection: 24 chunks per loop take every multiple of 24 (ncv4 ar_tree_12_LL.xml)") {
  ir::Algorithm tree = header(CollectiveKind::AllReduce, "allreduce", 4, 24, 96, 617472);
  const semantics::SelectionCall shape = call(CollectiveKind::AllReduce, 4, 0, 2);
  const auto counts = acceptedCounts(semantics::Selector::External, tree, shape,
                                     semantics::maxConsideredCount(CollectiveKind::AllReduce, 4, 2));
  REQUIRE(counts);
  CHECK(counts->first == 48);     // 48 x 2 = 96 bytes
  CHECK(counts->last == 308736);  // 308736 x 2 = 617472 bytes, 12864 x 24
  CHECK(accepts(semantics::Selector::External, tree, call(CollectiveKind::AllReduce, 4, 24 * 1000, 2)));
  CHECK(rejection(semantics::Selector::External, tree, call(CollectiveKind::AllReduce, 4, 24 * 1000 + 8, 2)) ==
        semantics::Rejection::Divisibility);
  // The internal scheduler on an 8-rank allgather with 48 chunks: count x 8 % 48 == 0 for every
  // multiple of 6; the plugin needs multiples of 48.
  const ir::Algorithm ag48 = header(CollectiveKind::AllGather, "allgather", 8, 48);
  const uint64_t max4 = semantics::maxConsideredCount(CollectiveKind::AllGather, 8, 4);
  CHECK(acceptedCounts(semantics::Selector::Internal, ag48, call(CollectiveKind::AllGather, 8, 0), max4)->first == 6);
  CHECK(acceptedCounts(semantics::Selector::External, ag48, call(CollectiveKind::AllGather, 8, 0), max4)->first == 48);
  CHECK(acceptedCounts(semantics::Selector::Internal, ag48, call(CollectiveKind::AllGather, 8, 0), max4)->last ==
        max4 / 6 * 6);
}

TEST_CASE("selection: the plugin's -1 for bfloat16 and fp8 wraps the size, so only maxBytes=0 files match") {
  const semantics::NcclDataType* bf16 = semantics::findNcclDataType("bfloat16");
  const semantics::NcclDataType* fp8 = semantics::findNcclDataType("fp8e5m2");
  const semantics::NcclDataType* half = semantics::findNcclDataType("half");
  REQUIRE(bf16);
  REQUIRE(fp8);
  REQUIRE(half);
  CHECK(selectorTypeSize(semantics::Selector::External, *bf16) == -1);
  CHECK(selectorTypeSize(semantics::Selector::External, *fp8) == -1);
  CHECK(selectorTypeSize(semantics::Selector::External, *half) == 2);
  CHECK(selectorTypeSize(semantics::Selector::Internal, *bf16) == 2);
  CHECK(selectorTypeSize(semantics::Selector::Internal, *fp8) == 1);
  CHECK(semantics::findNcclDataType("float128") == nullptr);
  // size_t: count x (size_t)-1 = 2^64 - count.
  CHECK(callBytes(call(CollectiveKind::AllReduce, 2, 48, -1)) == 18446744073709551568ull);
  CHECK(callBytes(call(CollectiveKind::AllGather, 3, 6, -1)) == 18446744073709551598ull);  // 2^64 - 18
  const ir::Algorithm bounded = header(CollectiveKind::AllReduce, "allreduce", 2, 1, 0, 1 << 20);
  const ir::Algorithm unbounded = header(CollectiveKind::AllReduce, "allreduce", 2, 1, 1 << 20, 0);
  CHECK(rejection(semantics::Selector::External, bounded, call(CollectiveKind::AllReduce, 2, 48, -1)) ==
        semantics::Rejection::Window);
  CHECK(accepts(semantics::Selector::External, unbounded,
                call(CollectiveKind::AllReduce, 2, 48, -1)));  // 1 MiB minimum too
  const uint64_t max1 = semantics::maxConsideredCount(CollectiveKind::AllReduce, 2, 1);
  CHECK_FALSE(acceptedCounts(semantics::Selector::External, bounded, call(CollectiveKind::AllReduce, 2, 0, -1), max1));
  const auto any =
      acceptedCounts(semantics::Selector::External, unbounded, call(CollectiveKind::AllReduce, 2, 0, -1), max1);
  REQUIRE(any);
  CHECK(any->first == 1);
  CHECK(any->last == max1);
  // A minBytes that no real call reaches (2^40 > 256 GiB): only the -1 calls select the file.
  const ir::Algorithm huge = header(CollectiveKind::AllReduce, "allreduce", 2, 1, int64_t{1} << 40, 0);
  CHECK_FALSE(acceptedCounts(semantics::Selector::External, huge, call(CollectiveKind::AllReduce, 2, 0, 4),
                             semantics::maxConsideredCount(CollectiveKind::AllReduce, 2, 4)));
  CHECK(acceptedCounts(semantics::Selector::External, huge, call(CollectiveKind::AllReduce, 2, 0, -1), max1));
}

TEST_CASE("selection: in-place is decided per rank; with the plugin's -1 only rank 0 sees it for allgather") {
  for (int32_t rank : {0, 1, 7}) {
    CHECK(seenForm(semantics::Selector::Internal, CollectiveKind::AllGather, semantics::CallForm::InPlace, 2, 2,
                   rank) == semantics::CallForm::InPlace);
    CHECK(seenForm(semantics::Selector::External, CollectiveKind::AllReduce, semantics::CallForm::InPlace, -1, 2,
                   rank) == semantics::CallForm::InPlace);
    CHECK(seenForm(semantics::Selector::External, CollectiveKind::AllGather, semantics::CallForm::OutOfPlace, -1, 2,
                   rank) == semantics::CallForm::OutOfPlace);
    CHECK(seenForm(semantics::Selector::Internal, CollectiveKind::Send, semantics::CallForm::InPlace, 4, 4, rank) ==
          semantics::CallForm::OutOfPlace);
  }
  CHECK(seenForm(semantics::Selector::External, CollectiveKind::AllGather, semantics::CallForm::InPlace, -1, 2, 0) ==
        semantics::CallForm::InPlace);
  CHECK(seenForm(semantics::Selector::External, CollectiveKind::AllGather, semantics::CallForm::InPlace, -1, 2, 1) ==
        semantics::CallForm::OutOfPlace);
  CHECK(seenForm(semantics::Selector::External, CollectiveKind::ReduceScatter, semantics::CallForm::InPlace, -1, 1,
                 3) == semantics::CallForm::OutOfPlace);
  CHECK(seenForm(semantics::Selector::External, CollectiveKind::AllGather, semantics::CallForm::InPlace, 4, 4, 3) ==
        semantics::CallForm::InPlace);
}

TEST_CASE("selection: no count at all: a non-positive nchunksperloop, a step past every call, an empty window") {
  const uint64_t max4 = semantics::maxConsideredCount(CollectiveKind::AllReduce, 2, 4);
  CHECK_FALSE(acceptedCounts(semantics::Selector::Internal, header(CollectiveKind::AllReduce, "allreduce", 2, 0),
                             call(CollectiveKind::AllReduce, 2, 0), max4));
  CHECK_FALSE(acceptedCounts(semantics::Selector::Internal, header(CollectiveKind::AllReduce, "allreduce", 2, -4),
                             call(CollectiveKind::AllReduce, 2, 0), max4));
  // 2^31 - 1 chunks: the smallest count is 2^31 - 1 of 4 bytes, under 256 GiB: accepted.
  CHECK(acceptedCounts(semantics::Selector::Internal, header(CollectiveKind::AllReduce, "allreduce", 2, 2147483647),
                       call(CollectiveKind::AllReduce, 2, 0), max4));
  // Window 100..103 bytes with 48 chunks of 4 bytes: multiples of 192 bytes, none inside.
  CHECK_FALSE(acceptedCounts(semantics::Selector::Internal,
                             header(CollectiveKind::AllReduce, "allreduce", 2, 48, 100, 103),
                             call(CollectiveKind::AllReduce, 2, 0), max4));
  // Legacy: [0, 128 MiB) by default, allgather divides count x typesize x ranks: 8 ranks, 4 bytes,
  // 48 chunks: count x 32 % 48 == 0 for multiples of 3.
  ir::Algorithm legacy = header(CollectiveKind::AllGather, "allgather", 8, 48, std::nullopt, std::nullopt);
  legacy.outofplace = std::nullopt;
  const auto counts = acceptedCounts(semantics::Selector::Legacy, legacy, call(CollectiveKind::AllGather, 8, 0),
                                     semantics::maxConsideredCount(CollectiveKind::AllGather, 8, 4));
  REQUIRE(counts);
  CHECK(counts->first == 3);
  CHECK(counts->last == 4194303);  // 3 x 1398101, x 32 = 134217696 < 128 MiB
}
