// Built when the project is configured without CUDA: the CUDA target does not exist here.
#include "runtime/target.hpp"

namespace ccforge::runtime {

bool builtWithCuda() { return false; }

std::string cudaUnavailableReason() {
  return "this ccforge was built without CUDA (nvcc was not found when it was configured)";
}

int cudaDeviceCount() { return 0; }

std::unique_ptr<Target> makeCudaTarget(const TargetOptions&) { throw CudaUnavailable(cudaUnavailableReason()); }

}  // namespace ccforge::runtime
