// The report of a tree-synthesis run (docs/synth.md and docs/synth-trees.md, "Output"): text
// for people, JSON for scripts. `topology` and `collective` are the request as the user spelled it.
#pragma once

#include <string>
#include <vector>

#include "synth/trees/tree_run.hpp"

namespace ccforge::synth::trees {

// `writing`: the run had an output directory.
std::string treeRunText(const std::string& topology, const std::string& collective,
                        const std::vector<TreeOutcome>& outcomes, bool writing);
// `outcomes` must not be empty.
std::string treeRunJson(const std::string& topology, const std::string& collective,
                        const std::vector<TreeOutcome>& outcomes);

}  // namespace ccforge::synth::trees
