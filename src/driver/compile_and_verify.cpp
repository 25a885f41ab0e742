#include "driver/compile_and_verify.hpp"

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
                                  const std::optional<CustomCollectiveSpec>& custom) {
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
  out.report = verifyCompiled(out.compiled.algorithm, program.binding().verifyName(), target, source,
                              program.binding().refinedCustom(program.refinement()));
  return out;
}

}  // namespace ccforge::driver
