#include "synth/method.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "base/limits.hpp"

namespace ccforge::synth {

Method methodFor(const topo::Topology& topology, std::optional<Method> requested) {
  if (requested) return *requested;
  return topology.boxCount() > 1 ? Method::Trees : Method::Smt;
}

void checkRequestSize(const topo::Topology& topology, Method method, const InstanceRequest& instance) {
  const bool trees = method == Method::Trees;
  const auto gpus = static_cast<int32_t>(topology.gpus().size());
  const int32_t most = trees ? base::limits::kMaxTreeSynthGpus : base::limits::kMaxSmtSynthGpus;
  if (gpus > most)
    throw base::LimitExceeded(
        fmt::format("topology {} has {} GPUs; the {} method synthesizes for at most {} "
                    "(ccforge's limit, docs/limits.md)",
                    topology.name, gpus, trees ? "tree" : "SMT", most));
  for (const auto& [name, value] :
       {std::pair{"--chunks", instance.chunks}, {"--steps", instance.steps}, {"--rounds", instance.rounds}})
    if (value && (*value < 1 || *value > base::limits::kMaxSmtInstanceSize))
      throw std::invalid_argument(fmt::format("{} {} is out of range: an instance has 1 to {} (docs/limits.md)", name,
                                              *value, base::limits::kMaxSmtInstanceSize));
  if (trees || !(instance.chunks && instance.steps && instance.rounds)) return;
  const int64_t work = int64_t{*instance.chunks} * std::max(*instance.rounds, *instance.steps) * gpus;
  if (work > base::limits::kMaxSmtInstanceWork)
    throw base::LimitExceeded(fmt::format(
        "instance (C,S,R) = ({},{},{}) on {} GPUs: C x R x GPUs = {} is over ccforge's "
        "instance limit of {} (docs/limits.md)",
        *instance.chunks, *instance.steps, *instance.rounds, gpus, work, base::limits::kMaxSmtInstanceWork));
}

}  // namespace ccforge::synth
