#include "synth/sccl/emit.hpp"

#include <functional>
#include <optional>

#include "codegen/compile_error.hpp"
#include "driver/compile_and_verify.hpp"
#include "dsl/dsl_error.hpp"
#include "synth/sccl/allreduce_lowering.hpp"
#include "synth/sccl/lowering.hpp"

namespace ccforge::synth::sccl {
namespace {

Emitted compileAndVerify(const std::function<dsl::Program(TransferLayout)>& lower, const std::string& source,
                         TransferLayout transfers) {
  Emitted out;
  try {
    driver::CompiledAndVerified result = driver::compileAndVerify(lower(transfers), driver::Target{}, source);
    out.report = std::move(result.report);
    out.algorithm = std::move(result.compiled.algorithm);
  } catch (const codegen::CompileError& e) {
    out.error = e.what();
  } catch (const dsl::DslError& e) {
    out.error = e.what();
  }
  return out;
}

// `layout`, or by default ncclize's layout and, where it exceeds a runtime limit, the compiler's own.
Emitted emitIn(const std::function<dsl::Program(TransferLayout)>& lower, const std::string& source,
               std::optional<TransferLayout> layout) {
  if (layout) return compileAndVerify(lower, source, *layout);
  Emitted out = compileAndVerify(lower, source, TransferLayout::PerConnection);
  return out.error.empty() ? out : compileAndVerify(lower, source, TransferLayout::Automatic);
}

}  // namespace

Emitted emitVerified(const Problem& problem, const Schedule& schedule, const std::string& name, ir::Protocol protocol,
                     const std::string& source, semantics::CallForm form, std::optional<TransferLayout> layout) {
  return emitIn(
      [&](TransferLayout transfers) { return lowerToDsl(problem, schedule, name, protocol, form, transfers); }, source,
      layout);
}

Emitted emitVerifiedAllReduce(const Problem& reduceScatter, const Schedule& reduceScatterSchedule,
                              const Problem& allGather, const Schedule& allGatherSchedule, const std::string& name,
                              ir::Protocol protocol, const std::string& source, semantics::CallForm form) {
  return emitIn(
      [&](TransferLayout transfers) {
        return lowerAllReduceToDsl(reduceScatter, reduceScatterSchedule, allGather, allGatherSchedule, name, protocol,
                                   form, transfers);
      },
      source, std::nullopt);
}

}  // namespace ccforge::synth::sccl
