// The CPU target: host memory, CpuExecutor, and the reference implementation as fallback.
#include <cstring>
#include <new>

#include "runtime/cpu/cpu_executor.hpp"
#include "runtime/reference.hpp"
#include "runtime/target.hpp"

namespace ccforge::runtime {
namespace {

class CpuExecution final : public Executor {
 public:
  CpuExecution(const ExecutableProgram& program, const CallShape& call, const CpuOptions& options)
      : executor_(program, call, options) {}
  void launch(std::span<const RankBuffers> buffers) override { executor_.launch(buffers); }
  const LaunchPlan& plan() const override { return executor_.plan(); }

 private:
  CpuExecutor executor_;
};

class CpuTarget final : public Target {
 public:
  explicit CpuTarget(const TargetOptions& o) {
    if (o.computeFirst) throw std::invalid_argument("compute-first is a mode of the CUDA backend");
    options_.workers = o.cpuWorkers;
    options_.timeout = o.timeout;
    options_.tuning = o.tuning;
  }
  std::string describe() const override { return "cpu"; }
  std::unique_ptr<Executor> prepare(const ExecutableProgram& program, const CallShape& call) override {
    return std::make_unique<CpuExecution>(program, call, options_);
  }
  Path runFallback(const CallShape& call, std::span<const RankBuffers> buffers) override {
    runReference(call, buffers);
    return Path::Reference;
  }
  void synchronize() override {}
  void* allocate(int32_t, size_t bytes) override { return ::operator new (bytes ? bytes : 1, std::align_val_t{64}); }
  void release(int32_t, void* p) override { ::operator delete (p, std::align_val_t{64}); }
  // An empty vector's data() may be null, which memcpy must not get even for 0 bytes.
  void upload(int32_t, void* dst, const void* src, size_t bytes) override {
    if (bytes != 0) std::memcpy(dst, src, bytes);
  }
  void download(int32_t, void* dst, const void* src, size_t bytes) override {
    if (bytes != 0) std::memcpy(dst, src, bytes);
  }

 private:
  CpuOptions options_;
};

}  // namespace

std::unique_ptr<Target> makeCpuTarget(const TargetOptions& options) { return std::make_unique<CpuTarget>(options); }

}  // namespace ccforge::runtime
