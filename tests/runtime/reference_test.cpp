#include <catch2/catch.hpp>

#include <vector>

#include "runtime/reference.hpp"

using namespace ccforge;
using namespace ccforge::runtime;

namespace {

CallShape shape(semantics::CollectiveType t, int32_t ranks, int64_t count, ReduceOp op = ReduceOp::Sum,
                semantics::CallForm form = semantics::CallForm::OutOfPlace) {
  CallShape c;
  c.collective = t;
  c.ranks = ranks;
  c.count = count;
  c.dtype = DataType::I32;
  c.op = op;
  c.form = form;
  return c;
}

}  // namespace

TEST_CASE("reference allreduce, reducescatter and reduce combine in rank order") {
  std::vector<std::vector<int32_t>> in{{1, 2}, {10, 20}, {100, 200}}, out(3, std::vector<int32_t>(2, -1));
  std::vector<RankBuffers> b(3);
  for (int r = 0; r < 3; ++r) b[r] = {in[r].data(), 2, out[r].data(), 2};
  runReference(shape(semantics::CollectiveType::AllReduce, 3, 2), b);
  for (int r = 0; r < 3; ++r) CHECK(out[r] == std::vector<int32_t>{111, 222});
  runReference(shape(semantics::CollectiveType::AllReduce, 3, 2, ReduceOp::Max), b);
  CHECK(out[1] == std::vector<int32_t>{100, 200});
  runReference(shape(semantics::CollectiveType::AllReduce, 3, 2, ReduceOp::Avg), b);
  CHECK(out[2] == std::vector<int32_t>{37, 74});

  // reducescatter: count 1 per rank, inputs of 3.
  std::vector<std::vector<int32_t>> rin{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, rout(3, std::vector<int32_t>(1, -1));
  for (int r = 0; r < 3; ++r) b[r] = {rin[r].data(), 3, rout[r].data(), 1};
  runReference(shape(semantics::CollectiveType::ReduceScatter, 3, 1), b);
  CHECK(rout[0][0] == 12);
  CHECK(rout[1][0] == 15);
  CHECK(rout[2][0] == 18);

  std::vector<std::vector<int32_t>> pout(3, std::vector<int32_t>(2, -1));
  for (int r = 0; r < 3; ++r) b[r] = {in[r].data(), 2, pout[r].data(), 2};
  CallShape reduce = shape(semantics::CollectiveType::Reduce, 3, 2, ReduceOp::Prod);
  reduce.root = 1;
  runReference(reduce, b);
  CHECK(pout[1] == std::vector<int32_t>{1000, 8000});
  CHECK(pout[0] == std::vector<int32_t>{-1, -1});  // not the root: untouched
}

TEST_CASE("reference allgather, alltoall and broadcast move data by rank") {
  std::vector<std::vector<int32_t>> in{{1, 2}, {3, 4}}, out(2, std::vector<int32_t>(4, -1));
  std::vector<RankBuffers> b(2);
  for (int r = 0; r < 2; ++r) b[r] = {in[r].data(), 2, out[r].data(), 4};
  runReference(shape(semantics::CollectiveType::AllGather, 2, 2), b);
  CHECK(out[1] == std::vector<int32_t>{1, 2, 3, 4});

  std::vector<std::vector<int32_t>> ain{{1, 2, 3, 4}, {5, 6, 7, 8}}, aout(2, std::vector<int32_t>(4, -1));
  for (int r = 0; r < 2; ++r) b[r] = {ain[r].data(), 4, aout[r].data(), 4};
  runReference(shape(semantics::CollectiveType::AllToAll, 2, 2), b);
  CHECK(aout[0] == std::vector<int32_t>{1, 2, 5, 6});
  CHECK(aout[1] == std::vector<int32_t>{3, 4, 7, 8});

  CallShape bcast = shape(semantics::CollectiveType::Broadcast, 2, 4);
  bcast.root = 1;
  runReference(bcast, b);
  CHECK(aout[0] == std::vector<int32_t>{5, 6, 7, 8});
}

TEST_CASE("reference in-place allgather reads each rank's input from its shard of the output") {
  // Rank r's buffer holds 4 elements; its input is elements [2r, 2r+2).
  std::vector<std::vector<int32_t>> buf{{1, 2, -1, -1}, {-1, -1, 3, 4}};
  std::vector<RankBuffers> b(2);
  for (int r = 0; r < 2; ++r) b[r] = {buf[r].data() + 2 * r, 2, buf[r].data(), 4};
  runReference(shape(semantics::CollectiveType::AllGather, 2, 2, ReduceOp::Sum, semantics::CallForm::InPlace), b);
  CHECK(buf[0] == std::vector<int32_t>{1, 2, 3, 4});
  CHECK(buf[1] == std::vector<int32_t>{1, 2, 3, 4});
}
