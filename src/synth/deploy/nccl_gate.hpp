// What NCCL does on its own, as the bar a synthesized file must clear (issue 24's honest windows):
// a file written by `synth -o` keeps the part of its window where it is predicted to beat NCCL's
// own choice (sim/nccl_model.hpp) by more than the model's error there
// (sim::ModelParameters::gainNeeded: the margin, or the calibrated or default error of the size
// regime), as tune does; the other sizes stay with NCCL.
#pragma once

#include <optional>
#include <string>

#include "ir/model.hpp"
#include "synth/deploy/deployment.hpp"
#include "topology/topology.hpp"

namespace ccforge::synth::deploy {

// Narrows the deployment's window to the longest run of power-of-two sizes of 1 KiB..4 GiB inside
// it (each size s standing for the calls of [s, 2 s)) where `algorithm`, simulated with the
// machine's model parameters, beats NCCL by the gain needed there, and records how sure that is
// (Deployment::overNccl). No such size: no window, and why. A collective NCCL does not have
// (gather, scatter, custom) keeps its window, said in `overNccl`'s absence.
void gateOnNccl(Deployment& deployment, const ir::Algorithm& algorithm, const std::string& source,
                const topo::Topology& topology, double margin);

}  // namespace ccforge::synth::deploy
