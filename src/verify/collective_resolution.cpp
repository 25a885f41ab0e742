#include "verify/collective_resolution.hpp"

#include <filesystem>
#include <stdexcept>

#include "semantics/collective_spec.hpp"
#include "base/input_error.hpp"
#include "ir/names.hpp"

namespace ccforge::verify {
namespace {

bool looksLikePath(const std::string& s) {
  return s.find('/') != std::string::npos || s.ends_with(".json") || std::filesystem::exists(s);
}

struct NamedCollective {
  semantics::CollectiveType type;
  int32_t root = 0;
  bool rootGiven = false;
};

NamedCollective parseName(const std::string& text) {
  NamedCollective n{};
  std::string name = text;
  if (auto colon = text.find(':'); colon != std::string::npos) {
    name = text.substr(0, colon);
    std::string root = text.substr(colon + 1);
    if (root.empty() || root.find_first_not_of("0123456789") != std::string::npos || root.size() > 9)
      throw std::invalid_argument("--collective " + text + ": the root must be a rank number");
    n.root = std::stoi(root);
    n.rootGiven = true;
  }
  auto type = semantics::parseCollectiveType(name);
  if (!type || *type == semantics::CollectiveType::Custom)
    throw std::invalid_argument("--collective " + text +
                                ": unknown collective (allreduce, allgather, reducescatter, alltoall, broadcast, "
                                "reduce, gather, scatter, alltonext, or a spec file)");
  n.type = *type;
  if (n.rootGiven && !isRooted(n.type))
    throw std::invalid_argument("--collective " + text + ": " + name + " has no root");
  return n;
}

}  // namespace

void checkCollectiveOption(const std::string& option) {
  if (!looksLikePath(option)) {
    (void)parseName(option);
    return;
  }
  semantics::CustomCollectiveSpec spec = semantics::readCollectiveSpecFile(option);
  try {
    (void)semantics::Collective::custom(std::move(spec));
  } catch (const std::invalid_argument& e) {
    throw base::InputError(option, {}, std::string("invalid collective spec: ") + e.what());
  }
}

ResolvedCollective resolveCollective(const ir::Algorithm& algo, const std::optional<std::string>& override,
                                     const std::optional<semantics::CustomCollectiveSpec>& custom, Findings& findings) {
  ResolvedCollective out;
  std::optional<semantics::CollectiveType> declared = semantics::collectiveTypeOf(algo.coll);
  try {
    if (custom) {
      if (custom->ranks != algo.ngpus)
        throw std::invalid_argument("custom collective '" + custom->name + "' is for " + std::to_string(custom->ranks) +
                                    " ranks, the program has ngpus=" + std::to_string(algo.ngpus));
      out.collective = semantics::Collective::custom(*custom);
    } else if (override && looksLikePath(*override)) {
      semantics::CustomCollectiveSpec spec = semantics::readCollectiveSpecFile(*override);
      if (spec.ranks != algo.ngpus)
        throw std::invalid_argument("collective spec " + *override + " is for " + std::to_string(spec.ranks) +
                                    " ranks, the program has ngpus=" + std::to_string(algo.ngpus));
      out.collective = semantics::Collective::custom(std::move(spec));
    } else if (override) {
      NamedCollective named = parseName(*override);
      if (declared && *declared != named.type)
        throw std::invalid_argument("--collective " + *override + " does not match coll=\"" + algo.collName +
                                    "\" of the file");
      out.collective = semantics::Collective::standard(named.type, algo.ngpus, algo.nchunksperloop, named.root);
      if (isRooted(named.type) && !named.rootGiven)
        out.notes.push_back("assuming root 0 (give --collective " + std::string(collectiveTypeName(named.type)) +
                            ":ROOT for another root)");
    } else if (!declared && algo.collectiveSpec) {
      semantics::CustomCollectiveSpec spec;
      try {
        spec = semantics::parseCollectiveSpec(*algo.collectiveSpec, std::string(ir::kCollectiveSpecComment));
      } catch (const base::InputError& e) {  // a finding about this file, not a bad command line
        throw std::invalid_argument(std::string("the file's collective spec comment: ") + e.what());
      }
      if (spec.ranks != algo.ngpus)
        throw std::invalid_argument("the collective spec in the file is for " + std::to_string(spec.ranks) +
                                    " ranks, the program has ngpus=" + std::to_string(algo.ngpus));
      out.notes.push_back("coll=\"custom\": checking '" + spec.name +
                          "', the collective spec ccforge wrote into the file "
                          "(--collective chooses another)");
      out.collective = semantics::Collective::custom(std::move(spec));
    } else if (!declared && semantics::parseCollectiveType(algo.name) == semantics::CollectiveType::AllToNext) {
      // The runtime knows alltonext only as coll="custom"; ccforge's compile names the program
      // after it, so its own files verify with no flag.
      out.collective =
          semantics::Collective::standard(semantics::CollectiveType::AllToNext, algo.ngpus, algo.nchunksperloop, 0);
      out.notes.push_back(
          "coll=\"custom\": checking alltonext, the collective the program is named after "
          "(--collective chooses another)");
    } else if (declared) {
      out.collective = semantics::Collective::standard(*declared, algo.ngpus, algo.nchunksperloop, 0);
      if (isRooted(*declared))
        out.notes.push_back("the file does not name a root: assuming root 0 (give --collective " +
                            std::string(collectiveTypeName(*declared)) + ":ROOT for another root)");
    }
  } catch (const std::invalid_argument& e) {
    findings.error(Check::Limits, "limits.collective", algo.where, e.what());
  }
  if (out.collective) {
    out.description = out.collective->describe();
  } else {
    out.description = algo.collName + " (no postcondition)";
    if (!findings.hasErrors(Check::Limits))
      out.notes.push_back("coll=\"" + algo.collName +
                          "\" names no postcondition: give --collective NAME[:ROOT] or a spec file to check it");
  }
  return out;
}

}  // namespace ccforge::verify
