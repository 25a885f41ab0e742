// The runtime parser's storage, checked on the file as written (docs/msccl-ir.md, "Limits of the
// runtime's parser"): XML nodes stored per rank's load (MAX_NODES), children per element
// (MAX_SUBS), and the narrowing of the stored fields a file can overflow (srcOffset and
// dstOffset; depid is limits.depid-int8, every other field is bounded by another rule first).
#pragma once

#include "ir/model.hpp"
#include "semantics/runtime_profile.hpp"
#include "verify/findings.hpp"

namespace ccforge::verify {

void checkParserStorage(const ir::Algorithm& algo, const semantics::RuntimeProfile& profile, Findings& findings);

}  // namespace ccforge::verify
