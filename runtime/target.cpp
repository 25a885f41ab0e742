#include "runtime/target.hpp"

namespace ccforge::runtime {

std::string_view pathName(Path p) {
  switch (p) {
    case Path::Interpreter: return "interpreter";
    case Path::Reference: return "reference fallback";
    case Path::Nccl: return "NCCL fallback";
  }
  return "?";
}

std::unique_ptr<Target> makeTarget(const TargetOptions& options) {
  return options.backend == BackendKind::Cpu ? makeCpuTarget(options) : makeCudaTarget(options);
}

}  // namespace ccforge::runtime
