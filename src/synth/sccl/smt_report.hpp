// The report of an SMT-synthesis run (docs/synth.md, "Output"): text for people, JSON for scripts.
// `topology` and `collective` are the request as the user spelled it ("broadcast:2"), `solver` the
// solver's name.
#pragma once

#include <string>

#include "synth/sccl/smt_run.hpp"

namespace ccforge::synth::sccl {

// `writing`: the run had an output directory.
std::string smtRunText(const std::string& topology, const std::string& collective, const std::string& solver,
                       const SmtRun& run, bool writing);
std::string smtRunJson(const std::string& topology, const std::string& solver, const SmtRun& run);

// "(C,S,R)" of an instance, as reports and progress lines name it.
std::string instanceName(int32_t chunks, int32_t steps, int32_t rounds);

}  // namespace ccforge::synth::sccl
