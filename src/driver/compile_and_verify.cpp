#include "driver/compile_and_verify.hpp"

#include "semantics/collective_spec.hpp"
#include "verify/verifier.hpp"

namespace ccforge::driver {

codegen::Compiled compileFor(const dsl::Program& program, const Target& target) {
  codegen::CompileOptions options;
  options.target = target.profile;
  if (target.maxCoResidentThreadBlocks) options.target.maxCoResidentThreadBlocks = *target.maxCoResidentThreadBlocks;
  return codegen::compile(program, options);
}

verify::FileReport verifyCompiled(const ir::Algorithm& algorithm, const std::optional<std::string>& collective,
                                  const Target& target, const std::string& source,
                                  const std::optional<semantics::CustomCollectiveSpec>& custom) {
  verify::Options options;
  options.profile = target.profile;
  options.maxCoResidentThreadBlocks = target.maxCoResidentThreadBlocks;
  options.collective = collective;
  options.customCollective = custom;
  return verify::verifyAlgorithm(algorithm, source, options);
}

CompiledAndVerified compileAndVerify(const dsl::Program& program, const Target& target, const std::string& source) {
  CompiledAndVerified out;
  out.compiled = compileFor(program, target);
  const std::optional<semantics::CustomCollectiveSpec> custom = program.binding().refinedCustom(program.refinement());
  if (custom) out.compiled.algorithm.collectiveSpec = collectiveSpecJson(*custom);
  out.report = verifyCompiled(out.compiled.algorithm, program.binding().verifyName(), target, source, custom);
  return out;
}

}  // namespace ccforge::driver
