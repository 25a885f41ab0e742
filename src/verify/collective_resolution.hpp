// Which collective (pre/postcondition) a file is checked against: its coll attribute, refined
// or supplied by --collective (NAME, NAME:ROOT or a spec file).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "semantics/collective.hpp"
#include "ir/model.hpp"
#include "verify/findings.hpp"

namespace ccforge::verify {

struct ResolvedCollective {
  std::optional<semantics::Collective> collective;  // nullopt: no postcondition known
  std::string description;
  std::vector<std::string> notes;
};

// Problems with the file's own header become findings; an unreadable spec file throws InputError.
// `custom`, when given, is the postcondition (Options::customCollective).
ResolvedCollective resolveCollective(const ir::Algorithm& algo, const std::optional<std::string>& override,
                                     const std::optional<semantics::CustomCollectiveSpec>& custom, Findings& findings);

// The --collective option on its own, before any file is read: throws std::invalid_argument for
// an unknown name or a bad root (a usage error) and InputError for a spec file that cannot be
// read or is invalid.
void checkCollectiveOption(const std::string& option);

}  // namespace ccforge::verify
