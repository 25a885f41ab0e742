// What a DSL program implements: a collective, its chunk factor and its call form.
//
// The chunk factor says how many chunks each rank's share of the buffer has (msccl-tools'
// convention): allreduce, broadcast, reduce and alltonext cut the buffer into chunkFactor
// chunks; allgather, reducescatter, alltoall, gather and scatter into ranks * chunkFactor.
// The compiler may cut every chunk into equal parts (instances, parallelize): `collective(r)`
// is the same collective at that finer granularity.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "dsl/fused_product.hpp"
#include "semantics/collective.hpp"

namespace ccforge::dsl {

struct CollectiveBinding {
  semantics::CollectiveType type = semantics::CollectiveType::AllReduce;
  int32_t ranks = 1;
  int32_t chunkFactor = 1;
  semantics::CallForm form = semantics::CallForm::OutOfPlace;
  int32_t root = 0;                                                      // rooted collectives only
  std::optional<semantics::CustomCollectiveSpec> custom = std::nullopt;  // type == Custom only
  // A fused program (docs/fused.md): every rank's input buffer is its product, defined chunk by
  // chunk by compute(); allreduce for gemv, alltoall otherwise, out of place.
  std::optional<FusedProduct> product = std::nullopt;

  // Throws std::invalid_argument when the parameters do not describe a collective.
  void validate() const;
  int32_t chunksPerLoop() const;
  // The collective with each chunk cut into `refinement` parts: chunk k becomes chunks
  // k*refinement .. k*refinement + refinement-1.
  semantics::Collective collective(int32_t refinement = 1) const;
  // A custom collective's spec at that granularity (what collective(refinement) is built from);
  // nullopt for a built-in collective.
  std::optional<semantics::CustomCollectiveSpec> refinedCustom(int32_t refinement = 1) const;
  // The collective as `ccforge verify --collective` names it ("allreduce", "broadcast:2",
  // "alltonext"); nullopt for a custom collective, which only a spec file describes.
  std::optional<std::string> verifyName() const;
};

}  // namespace ccforge::dsl
