#include "driver/run_verification.hpp"

#include "semantics/collective.hpp"
#include "verify/verifier.hpp"

namespace ccforge::driver {

RunVerification verifyForRun(const ir::ReadResult& read, const std::string& source,
                             const RunVerificationOptions& options) {
  verify::Options check;
  check.profileFromHeader = !options.profile;
  if (options.profile) check.profile = *options.profile;
  check.slots = options.slots;
  // The interpreter runs every rank in one process: each slot comes back as its data is consumed.
  check.boxes = verify::BoxLayout::oneBox();
  check.maxCoResidentThreadBlocks = options.maxCoResidentThreadBlocks;
  const std::optional<semantics::CollectiveType> type = semantics::collectiveTypeOf(read.algorithm.coll);
  if (type && isRooted(*type))
    check.collective = std::string(collectiveTypeName(*type)) + ":" + std::to_string(options.root);
  RunVerification out;
  out.report = verify::verifyAlgorithm(read.algorithm, source, check, read.runtimeParserIssues);
  out.decision = out.report.verdict == verify::Verdict::Verified       ? LoadDecision::Run
                 : out.report.verdict == verify::Verdict::Inconclusive ? LoadDecision::RunUnproven
                                                                       : LoadDecision::Refuse;
  return out;
}

}  // namespace ccforge::driver
