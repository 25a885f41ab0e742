// The programs `ccforge tune` compares with NCCL: library algorithms instantiated for the
// topology (several protocols, instance counts and both call forms where the algorithm has
// them), programs of the tree method (synth/trees), and the user's own files. Each is compiled
// (where it is a DSL program) and verified for msccl-executor before it may compete.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "semantics/collective.hpp"
#include "topology/topology.hpp"

namespace ccforge::tune {

struct Candidate {
  std::string name;         // "ring-allreduce instances=2 LL128", "trees LL128", a file's path
  std::string id;           // file-name safe: "ring-allreduce-i2-ll128"
  std::string origin;       // "library", "synth", "file"
  ir::Algorithm algorithm;  // as compiled (or read), verified
  std::string source;       // where findings about it are located
};

struct Rejected {
  std::string name;
  std::string why;
};

struct CandidateSet {
  std::vector<Candidate> candidates;
  std::vector<Rejected> rejected;  // not compiled, not verified, another collective, ...
};

struct CandidateOptions {
  bool library = true;
  bool synthesize = true;              // the tree method
  double synthesisSeconds = 20;        // its limit per collective
  std::vector<std::string> userFiles;  // MSCCL-IR files; those of another collective or rank count are skipped
};

// Candidates for one collective on the topology, in a fixed order (library, synthesized, files).
CandidateSet gatherCandidates(const topo::Topology& topology, semantics::CollectiveType collective,
                              const CandidateOptions& options);

}  // namespace ccforge::tune
