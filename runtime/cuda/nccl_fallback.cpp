#include "runtime/cuda/nccl_fallback.hpp"

#include <nccl.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/cuda/cuda_check.hpp"

namespace ccforge::runtime {
namespace {

void checkNccl(ncclResult_t status, const char* what) {
  if (status != ncclSuccess) throw std::runtime_error(std::string("NCCL: ") + what + ": " + ncclGetErrorString(status));
}

ncclDataType_t ncclTypeOf(DataType t) {
  switch (t) {
    case DataType::F32: return ncclFloat32;
    case DataType::F16: return ncclFloat16;
    case DataType::BF16: return ncclBfloat16;
    case DataType::F64: return ncclFloat64;
    case DataType::I32: return ncclInt32;
    case DataType::I64: return ncclInt64;
    case DataType::U8: return ncclUint8;
  }
  return ncclFloat32;
}

ncclRedOp_t ncclOpOf(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return ncclSum;
    case ReduceOp::Prod: return ncclProd;
    case ReduceOp::Min: return ncclMin;
    case ReduceOp::Max: return ncclMax;
    case ReduceOp::Avg: return ncclAvg;
  }
  return ncclSum;
}

// Ends the NCCL group even when one of its calls failed (that error is the one reported).
struct Group {
  Group() { checkNccl(ncclGroupStart(), "ncclGroupStart"); }
  ~Group() {
    if (!ended) ncclGroupEnd();
  }
  void end() {
    ended = true;
    checkNccl(ncclGroupEnd(), "ncclGroupEnd");
  }
  bool ended = false;
};

}  // namespace

struct NcclFallback::State {
  std::vector<ncclComm_t> comms;
  std::vector<Stream> streams;
};

NcclFallback::NcclFallback(int32_t ranks) : state_(std::make_unique<State>()) {
  std::vector<int> devices(ranks);
  for (int32_t r = 0; r < ranks; ++r) devices[r] = r;
  state_->comms.resize(ranks);
  checkNccl(ncclCommInitAll(state_->comms.data(), ranks, devices.data()), "ncclCommInitAll");
  for (int32_t r = 0; r < ranks; ++r) state_->streams.emplace_back(r);
}

NcclFallback::~NcclFallback() {
  for (ncclComm_t c : state_->comms) ncclCommDestroy(c);
}

int32_t NcclFallback::ranks() const { return static_cast<int32_t>(state_->comms.size()); }

void NcclFallback::run(const CallShape& call, std::span<const RankBuffers> buffers) {
  const ncclDataType_t type = ncclTypeOf(call.dtype);
  const ncclRedOp_t op = ncclOpOf(call.op);
  const size_t elem = dataTypeSize(call.dtype);
  const size_t count = static_cast<size_t>(call.count);
  const size_t shard = static_cast<size_t>(call.count / call.ranks);  // gather/scatter per-rank piece
  Group group;
  for (int32_t r = 0; r < call.ranks; ++r) {
    ncclComm_t comm = state_->comms[r];
    cudaStream_t stream = state_->streams[r].get();
    const auto* send = static_cast<const unsigned char*>(buffers[r].send);
    auto* recv = static_cast<unsigned char*>(buffers[r].recv);
    switch (call.collective) {
      case semantics::CollectiveType::AllReduce:
        checkNccl(ncclAllReduce(send, recv, count, type, op, comm, stream), "ncclAllReduce");
        break;
      case semantics::CollectiveType::AllGather:
        checkNccl(ncclAllGather(send, recv, count, type, comm, stream), "ncclAllGather");
        break;
      case semantics::CollectiveType::ReduceScatter:
        checkNccl(ncclReduceScatter(send, recv, count, type, op, comm, stream), "ncclReduceScatter");
        break;
      case semantics::CollectiveType::Broadcast:
        checkNccl(ncclBroadcast(send, recv, count, type, call.root, comm, stream), "ncclBroadcast");
        break;
      case semantics::CollectiveType::Reduce:
        checkNccl(ncclReduce(send, recv, count, type, op, call.root, comm, stream), "ncclReduce");
        break;
      case semantics::CollectiveType::AllToAll:
        for (int32_t q = 0; q < call.ranks; ++q) {
          checkNccl(ncclSend(send + q * count * elem, count, type, q, comm, stream), "ncclSend");
          checkNccl(ncclRecv(recv + q * count * elem, count, type, q, comm, stream), "ncclRecv");
        }
        break;
      case semantics::CollectiveType::Gather:
        checkNccl(ncclSend(send, shard, type, call.root, comm, stream), "ncclSend");
        if (r == call.root)
          for (int32_t q = 0; q < call.ranks; ++q)
            checkNccl(ncclRecv(recv + q * shard * elem, shard, type, q, comm, stream), "ncclRecv");
        break;
      case semantics::CollectiveType::Scatter:
        if (r == call.root)
          for (int32_t q = 0; q < call.ranks; ++q)
            checkNccl(ncclSend(send + q * shard * elem, shard, type, q, comm, stream), "ncclSend");
        checkNccl(ncclRecv(recv, shard, type, call.root, comm, stream), "ncclRecv");
        break;
      default: throw std::invalid_argument("NCCL has no fallback for this collective");
    }
  }
  group.end();
}

void NcclFallback::synchronize() {
  for (size_t r = 0; r < state_->streams.size(); ++r) {
    checkCuda(cudaSetDevice(static_cast<int>(r)), "cudaSetDevice");
    checkCuda(cudaStreamSynchronize(state_->streams[r].get()), "NCCL fallback");
  }
}

}  // namespace ccforge::runtime
