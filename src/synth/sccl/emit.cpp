#include "synth/sccl/emit.hpp"

#include <functional>

#include "codegen/compile_error.hpp"
#include "driver/compile_and_verify.hpp"
#include "dsl/dsl_error.hpp"
#include "synth/sccl/allreduce_lowering.hpp"
#include "synth/sccl/lowering.hpp"

namespace ccforge::synth::sccl {
namespace {

Emitted compileAndVerify(const std::function<dsl::Program()>& lower, const std::string& source) {
  Emitted out;
  try {
    driver::CompiledAndVerified result = driver::compileAndVerify(lower(), driver::Target{}, source);
    out.report = std::move(result.report);
    out.algorithm = std::move(result.compiled.algorithm);
  } catch (const codegen::CompileError& e) {
    out.error = e.what();
  } catch (const dsl::DslError& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace

Emitted emitVerified(const Problem& problem, const Schedule& schedule, const std::string& name, ir::Protocol protocol,
                     const std::string& source, CallForm form) {
  return compileAndVerify([&] { return lowerToDsl(problem, schedule, name, protocol, form); }, source);
}

Emitted emitVerifiedAllReduce(const Problem& reduceScatter, const Schedule& reduceScatterSchedule,
                              const Problem& allGather, const Schedule& allGatherSchedule, const std::string& name,
                              ir::Protocol protocol, const std::string& source, CallForm form) {
  return compileAndVerify(
      [&] {
        return lowerAllReduceToDsl(reduceScatter, reduceScatterSchedule, allGather, allGatherSchedule, name, protocol,
                                   form);
      },
      source);
}

}  // namespace ccforge::synth::sccl
