#include "runtime/loader.hpp"

#include "ir/reader.hpp"

namespace ccforge::runtime {

ExecutableProgram loadExecutable(ir::Algorithm algorithm, std::string source, const LoadOptions& options,
                                 std::string* verification) {
  ExecutableProgram program = ExecutableProgram::compile(std::move(algorithm), std::move(source));
  if (options.verifier) {
    VerificationOutcome outcome = (*options.verifier)(program.algorithm(), program.source());
    if (!outcome.passed) throw VerificationFailed(program.source(), outcome.report);
    if (verification) *verification = outcome.report;
  }
  return program;
}

ExecutableProgram loadExecutable(const std::filesystem::path& path, const LoadOptions& options,
                                 std::string* verification) {
  ir::ReadResult read = ir::readAlgorithmFile(path);
  return loadExecutable(std::move(read.algorithm), path.string(), options, verification);
}

}  // namespace ccforge::runtime
