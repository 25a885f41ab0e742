#include "dsl/collective_binding.hpp"

#include <limits>
#include <stdexcept>

#include "base/limits.hpp"
#include "ir/names.hpp"

namespace ccforge::dsl {
namespace {

std::vector<semantics::ChunkMapEntry> refine(const std::vector<semantics::ChunkMapEntry>& entries, int32_t r) {
  std::vector<semantics::ChunkMapEntry> out;
  out.reserve(entries.size() * static_cast<size_t>(r));
  for (const semantics::ChunkMapEntry& e : entries)
    for (int32_t part = 0; part < r; ++part) {
      semantics::ChunkMapEntry f{e.rank, e.index * r + part, {}};
      for (const semantics::Atom& a : e.value) f.value.push_back(semantics::Atom{a.rank, a.index * r + part});
      out.push_back(std::move(f));
    }
  return out;
}

}  // namespace

void CollectiveBinding::validate() const {
  if (ranks < 1) throw std::invalid_argument("a program needs at least 1 rank, got " + std::to_string(ranks));
  if (chunkFactor < 1)
    throw std::invalid_argument("the chunk factor must be at least 1, got " + std::to_string(chunkFactor));
  if (ranks > base::limits::kMaxProgramRanks)
    throw base::LimitExceeded("a program of " + std::to_string(ranks) + " ranks is over ccforge's limit of " +
                              std::to_string(base::limits::kMaxProgramRanks) + " ranks (docs/limits.md)");
  // The chunks of every rank's buffers, as the DSL tracks them (chunksPerLoop per rank at most,
  // twice for an out-of-place call): computed in 64 bits, as ranks x chunks may pass 2^31.
  const int64_t perRank = hasShards(type) ? int64_t{ranks} * chunkFactor : chunkFactor;
  if (!custom && perRank * ranks * 2 > base::limits::kMaxProgramChunks)
    throw base::LimitExceeded("a program of " + std::to_string(ranks) + " ranks with " + std::to_string(perRank) +
                              " chunks per rank buffer is over ccforge's limit of " +
                              std::to_string(base::limits::kMaxProgramChunks) +
                              " buffer chunks over all ranks (docs/limits.md)");
  if (perRank > std::numeric_limits<int32_t>::max())
    throw base::LimitExceeded("a buffer of " + std::to_string(perRank) + " chunks does not fit the IR's 32-bit counts");
  if (type == semantics::CollectiveType::Custom && !custom)
    throw std::invalid_argument("a custom collective needs its specification");
  if (type != semantics::CollectiveType::Custom && custom)
    throw std::invalid_argument("only a custom collective takes a specification");
  if (custom && custom->ranks != ranks)
    throw std::invalid_argument("the custom collective is for " + std::to_string(custom->ranks) +
                                " ranks, the program for " + std::to_string(ranks));
  (void)collective(1);  // the collective's own parameter checks
  if (!product) return;
  product->validate();
  const semantics::CollectiveType expected =
      product->allreduce() ? semantics::CollectiveType::AllReduce : semantics::CollectiveType::AllToAll;
  if (type != expected)
    throw std::invalid_argument(std::string("a fused ") + std::string(ir::computeOpName(product->op)) +
                                " product goes with " + std::string(collectiveTypeName(expected)) + ", not " +
                                std::string(collectiveTypeName(type)));
  if (form != semantics::CallForm::OutOfPlace)
    throw std::invalid_argument("a fused program is out of place: its input buffer is the product");
  if (product->rows % chunksPerLoop() != 0)
    throw std::invalid_argument("the product's rows (" + std::to_string(product->rows) +
                                ") must be a multiple of the " + std::to_string(chunksPerLoop()) +
                                " input chunks, so that every chunk holds whole rows");
}

int32_t CollectiveBinding::chunksPerLoop() const {
  if (custom) return std::max(custom->inputChunks, custom->outputChunks);
  return hasShards(type) ? ranks * chunkFactor : chunkFactor;
}

semantics::Collective CollectiveBinding::collective(int32_t refinement) const {
  if (refinement < 1) throw std::invalid_argument("chunk refinement must be at least 1");
  if (!custom) return semantics::Collective::standard(type, ranks, chunksPerLoop() * refinement, root);
  return semantics::Collective::custom(*refinedCustom(refinement));
}

std::optional<semantics::CustomCollectiveSpec> CollectiveBinding::refinedCustom(int32_t refinement) const {
  if (!custom) return std::nullopt;
  if (refinement < 1) throw std::invalid_argument("chunk refinement must be at least 1");
  semantics::CustomCollectiveSpec spec = *custom;
  spec.inputChunks *= refinement;
  spec.outputChunks *= refinement;
  if (spec.pre) spec.pre = refine(*spec.pre, refinement);
  spec.post = refine(spec.post, refinement);
  return spec;
}

std::optional<std::string> CollectiveBinding::verifyName() const {
  if (custom) return std::nullopt;
  std::string name(collectiveTypeName(type));
  if (isRooted(type)) {  // two appends: GCC 12 misreports a concatenation here (-Wrestrict)
    name += ':';
    name += std::to_string(root);
  }
  return name;
}

}  // namespace ccforge::dsl
