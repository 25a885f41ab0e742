// The CUDA target: device memory, CUDA executors, and the fallback of each mode (the host
// reference on copies of the device buffers when all ranks share a GPU, NCCL with one GPU per rank).
#include <cuda_runtime_api.h>

#include <vector>

#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/cuda_executor.hpp"
#include "runtime/cuda/nccl_fallback.hpp"
#include "runtime/reference.hpp"
#include "runtime/target.hpp"

namespace ccforge::runtime {
namespace {

class CudaTarget final : public Target {
 public:
  explicit CudaTarget(const TargetOptions& o) {
    options_.mode = o.mode;
    options_.timeout = o.timeout;
    options_.tuning = o.tuning;
    options_.computeFirst = o.computeFirst;
  }
  std::string describe() const override {
    cudaDeviceProp p{};
    checkCuda(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    int devices = 0;
    checkCuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
    return std::string("cuda ") + (options_.mode == GpuMode::RanksOnOneGpu ? "ranks-on-one-gpu" : "gpu-per-rank") +
           " (" + std::to_string(devices) + " x " + p.name + ")";
  }
  std::unique_ptr<Executor> prepare(const ExecutableProgram& program, const CallShape& call) override {
    return makeCudaExecutor(program, call, options_);
  }
  Path runFallback(const CallShape& call, std::span<const RankBuffers> buffers) override {
    if (options_.mode == GpuMode::GpuPerRank) {
      if (!nccl_ || nccl_->ranks() != call.ranks) {
        nccl_.reset();
        nccl_ = std::make_unique<NcclFallback>(call.ranks);
      }
      nccl_->run(call, buffers);
      return Path::Nccl;
    }
    referenceOnHost(call, buffers);
    return Path::Reference;
  }
  void synchronize() override {
    if (nccl_) nccl_->synchronize();
  }
  void* allocate(int32_t rank, size_t bytes) override {
    void* p = nullptr;
    checkCuda(cudaSetDevice(deviceOf(rank)), "cudaSetDevice");
    checkCuda(cudaMalloc(&p, bytes ? bytes : 16), "cudaMalloc");
    return p;
  }
  void release(int32_t rank, void* p) override {
    cudaSetDevice(deviceOf(rank));
    cudaFree(p);
  }
  void upload(int32_t rank, void* dst, const void* src, size_t bytes) override {
    checkCuda(cudaSetDevice(deviceOf(rank)), "cudaSetDevice");
    checkCuda(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }
  void download(int32_t rank, void* dst, const void* src, size_t bytes) override {
    checkCuda(cudaSetDevice(deviceOf(rank)), "cudaSetDevice");
    checkCuda(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
  }

 private:
  int deviceOf(int32_t rank) const { return options_.mode == GpuMode::GpuPerRank ? rank : 0; }

  // Copies each rank's buffer(s) to the host, runs the reference there, copies the outputs back.
  void referenceOnHost(const CallShape& call, std::span<const RankBuffers> buffers) {
    validateBuffers(call, buffers);
    checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const size_t elem = dataTypeSize(call.dtype);
    std::vector<std::vector<unsigned char>> sends(call.ranks), recvs(call.ranks);
    std::vector<RankBuffers> host(call.ranks);
    for (int32_t r = 0; r < call.ranks; ++r) {
      const BufferSizes s = bufferSizes(call, r);
      host[r] = buffers[r];
      if (call.form == semantics::CallForm::InPlace) {  // one region: keep the offsets between the two pointers
        const bool sendHoldsRegion = call.collective == semantics::CollectiveType::ReduceScatter ||
                                     call.collective == semantics::CollectiveType::Scatter;
        const void* base = sendHoldsRegion
                               ? buffers[r].send
                               : static_cast<const unsigned char*>(buffers[r].send) - s.inputOffsetElems * elem;
        recvs[r].resize(s.regionElems * elem);
        download(r, recvs[r].data(), base, recvs[r].size());
        unsigned char* region = recvs[r].data();
        host[r].send = region + s.inputOffsetElems * elem;
        host[r].recv = region + s.outputOffsetElems * elem;
      } else {
        sends[r].resize(s.inputElems * elem);
        recvs[r].resize(s.outputElems * elem);
        download(r, sends[r].data(), buffers[r].send, sends[r].size());
        download(r, recvs[r].data(), buffers[r].recv, recvs[r].size());
        host[r].send = sends[r].data();
        host[r].recv = recvs[r].data();
      }
    }
    runReference(call, host);
    for (int32_t r = 0; r < call.ranks; ++r) {
      const BufferSizes s = bufferSizes(call, r);
      upload(r, buffers[r].recv, host[r].recv, s.outputElems * elem);
    }
  }

  CudaExecutorOptions options_;
  std::unique_ptr<NcclFallback> nccl_;
};

}  // namespace

bool builtWithCuda() { return true; }

std::string cudaUnavailableReason() {
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return std::string("no usable CUDA device: ") + cudaGetErrorString(e);
  }
  if (devices == 0) return "no CUDA device is present";
  return "";
}

int cudaDeviceCount() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return devices;
}

std::unique_ptr<Target> makeCudaTarget(const TargetOptions& options) {
  const std::string why = cudaUnavailableReason();
  if (!why.empty()) throw CudaUnavailable(why);
  return std::make_unique<CudaTarget>(options);
}

}  // namespace ccforge::runtime
