#include "runtime/loader.hpp"

#include "ir/reader.hpp"

namespace ccforge::runtime {

Program loadProgram(ir::Algorithm algorithm, std::string source, const LoadOptions& options,
                    std::string* verification) {
  Program program = Program::compile(std::move(algorithm), std::move(source));
  if (options.verifier) {
    VerificationOutcome outcome = (*options.verifier)(program.algorithm(), program.source());
    if (!outcome.passed) throw VerificationFailed(program.source(), outcome.report);
    if (verification) *verification = outcome.report;
  }
  return program;
}

Program loadProgram(const std::filesystem::path& path, const LoadOptions& options, std::string* verification) {
  ir::ReadResult read = ir::readAlgorithmFile(path);
  return loadProgram(std::move(read.algorithm), path.string(), options, verification);
}

}  // namespace ccforge::runtime
