#include "semantics/collective.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace ccforge::semantics {
namespace {

using ir::Buffer;

constexpr std::array<std::pair<std::string_view, CollectiveType>, 11> kNames{{
    {"allreduce", CollectiveType::AllReduce},
    {"allgather", CollectiveType::AllGather},
    {"reducescatter", CollectiveType::ReduceScatter},
    {"reduce_scatter", CollectiveType::ReduceScatter},
    {"alltoall", CollectiveType::AllToAll},
    {"broadcast", CollectiveType::Broadcast},
    {"reduce", CollectiveType::Reduce},
    {"gather", CollectiveType::Gather},
    {"scatter", CollectiveType::Scatter},
    {"alltonext", CollectiveType::AllToNext},
    {"custom", CollectiveType::Custom},
}};

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

// The sum of `atoms`; an empty list is uninitialised data.
ChunkValues::Id valueOf(ChunkValues& values, const std::vector<Atom>& atoms) {
  if (atoms.empty()) return ChunkValues::kUninitialized;
  ChunkValues::Id v = values.input(atoms[0].rank, atoms[0].index);
  for (size_t i = 1; i < atoms.size(); ++i) v = values.reduce(v, values.input(atoms[i].rank, atoms[i].index));
  return v;
}

}  // namespace

bool hasShards(CollectiveType t) {
  return t == CollectiveType::AllGather || t == CollectiveType::ReduceScatter || t == CollectiveType::Gather ||
         t == CollectiveType::Scatter || t == CollectiveType::AllToAll;
}

std::string_view callFormName(CallForm f) { return f == CallForm::InPlace ? "in-place" : "out-of-place"; }

bool isRooted(CollectiveType t) {
  return t == CollectiveType::Broadcast || t == CollectiveType::Reduce || t == CollectiveType::Gather ||
         t == CollectiveType::Scatter;
}

std::string_view collectiveTypeName(CollectiveType t) {
  for (const auto& [name, type] : kNames)
    if (type == t) return name;
  return "?";
}

std::optional<CollectiveType> parseCollectiveType(std::string_view name) {
  for (const auto& [n, type] : kNames)
    if (n == name) return type;
  return std::nullopt;
}

std::optional<CollectiveType> collectiveTypeOf(ir::CollectiveKind kind) {
  switch (kind) {
    case ir::CollectiveKind::AllReduce: return CollectiveType::AllReduce;
    case ir::CollectiveKind::AllGather: return CollectiveType::AllGather;
    case ir::CollectiveKind::ReduceScatter: return CollectiveType::ReduceScatter;
    case ir::CollectiveKind::AllToAll: return CollectiveType::AllToAll;
    case ir::CollectiveKind::Broadcast: return CollectiveType::Broadcast;
    case ir::CollectiveKind::Reduce: return CollectiveType::Reduce;
    case ir::CollectiveKind::Gather: return CollectiveType::Gather;
    case ir::CollectiveKind::Scatter: return CollectiveType::Scatter;
    default: return std::nullopt;
  }
}

double busBandwidthFactor(CollectiveType t, int32_t ranks) {
  const double n = ranks;
  switch (t) {
    case CollectiveType::AllReduce: return 2 * (n - 1) / n;
    case CollectiveType::AllGather:
    case CollectiveType::ReduceScatter:
    case CollectiveType::AllToAll:
    case CollectiveType::Gather:
    case CollectiveType::Scatter: return (n - 1) / n;
    default: return 1;
  }
}

ir::CollectiveKind irKindOf(CollectiveType t) {
  switch (t) {
    case CollectiveType::AllReduce: return ir::CollectiveKind::AllReduce;
    case CollectiveType::AllGather: return ir::CollectiveKind::AllGather;
    case CollectiveType::ReduceScatter: return ir::CollectiveKind::ReduceScatter;
    case CollectiveType::AllToAll: return ir::CollectiveKind::AllToAll;
    case CollectiveType::Broadcast: return ir::CollectiveKind::Broadcast;
    case CollectiveType::Reduce: return ir::CollectiveKind::Reduce;
    case CollectiveType::Gather: return ir::CollectiveKind::Gather;
    case CollectiveType::Scatter: return ir::CollectiveKind::Scatter;
    case CollectiveType::AllToNext:
    case CollectiveType::Custom: return ir::CollectiveKind::Custom;
  }
  return ir::CollectiveKind::Custom;
}

Collective Collective::standard(CollectiveType type, int32_t ranks, int32_t chunksPerLoop, int32_t root) {
  require(type != CollectiveType::Custom, "a custom collective needs a spec");
  require(ranks >= 1, "the number of ranks must be at least 1, got " + std::to_string(ranks));
  require(chunksPerLoop >= 1, "nchunksperloop must be at least 1, got " + std::to_string(chunksPerLoop));
  require(!isRooted(type) || (root >= 0 && root < ranks),
          "root " + std::to_string(root) + " is out of range for " + std::to_string(ranks) + " ranks");
  require(!hasShards(type) || chunksPerLoop % ranks == 0,
          std::string(collectiveTypeName(type)) + " needs nchunksperloop (" + std::to_string(chunksPerLoop) +
              ") to be a multiple of the number of ranks (" + std::to_string(ranks) + ")");
  Collective c;
  c.type_ = type;
  c.ranks_ = ranks;
  c.chunksPerLoop_ = chunksPerLoop;
  c.root_ = isRooted(type) ? root : 0;
  const int32_t shard = chunksPerLoop / ranks;
  const bool gathers = type == CollectiveType::AllGather || type == CollectiveType::Gather;
  const bool scatters = type == CollectiveType::ReduceScatter || type == CollectiveType::Scatter;
  c.inputChunks_ = gathers ? shard : chunksPerLoop;
  c.outputChunks_ = scatters ? shard : chunksPerLoop;
  return c;
}

Collective Collective::custom(CustomCollectiveSpec spec) {
  require(spec.ranks >= 1, "custom collective '" + spec.name + "': ranks must be at least 1");
  require(spec.inputChunks >= 0 && spec.outputChunks >= 0,
          "custom collective '" + spec.name + "': buffer sizes must not be negative");
  Collective c;
  c.type_ = CollectiveType::Custom;
  c.customName_ = spec.name;
  c.ranks_ = spec.ranks;
  c.chunksPerLoop_ = std::max(spec.inputChunks, spec.outputChunks);
  c.inputChunks_ = spec.inputChunks;
  c.outputChunks_ = spec.outputChunks;
  auto checkEntry = [&](const ChunkMapEntry& e, int32_t size, const char* what) {
    require(e.rank >= 0 && e.rank < spec.ranks && e.index >= 0 && e.index < size,
            "custom collective '" + spec.name + "': " + what + " chunk (" + std::to_string(e.rank) + ", " +
                std::to_string(e.index) + ") is outside the buffer");
    for (const Atom& a : e.value)
      require(a.rank >= 0 && a.rank < spec.ranks && a.index >= 0 && a.index < spec.inputChunks,
              "custom collective '" + spec.name + "': value " + describeAtom(a) + " names no input chunk");
  };
  if (spec.pre) {
    c.pre_.emplace(spec.ranks, std::vector<std::vector<Atom>>(spec.inputChunks));
    for (const ChunkMapEntry& e : *spec.pre) {
      checkEntry(e, spec.inputChunks, "precondition");
      (*c.pre_)[e.rank][e.index] = e.value;
    }
  }
  c.post_.assign(spec.ranks, std::vector<std::optional<std::vector<Atom>>>(spec.outputChunks));
  for (const ChunkMapEntry& e : spec.post) {
    checkEntry(e, spec.outputChunks, "postcondition");
    require(!e.value.empty(), "custom collective '" + spec.name + "': postcondition entry with an empty value");
    c.post_[e.rank][e.index] = e.value;
  }
  return c;
}

std::string Collective::describe() const {
  if (type_ == CollectiveType::Custom) return "custom '" + customName_ + "'";
  std::string s(collectiveTypeName(type_));
  if (isRooted(type_)) s += "(root " + std::to_string(root_) + ")";
  return s;
}

RankLayout Collective::layout(int32_t rank, CallForm form, int32_t scratchChunks) const {
  RankLayout l;
  const int32_t shard = chunksPerLoop_ / ranks_;
  auto set = [&](Buffer b, int32_t region, int32_t base, int32_t length) {
    l.views[static_cast<size_t>(b)] = BufferView{region, base, length};
  };
  if (form == CallForm::OutOfPlace) {
    l.regionSizes = {inputChunks_, outputChunks_, scratchChunks};
    set(Buffer::Input, 0, 0, inputChunks_);
    set(Buffer::Output, 1, 0, outputChunks_);
    set(Buffer::Scratch, 2, 0, scratchChunks);
    return l;
  }
  // In place: one user buffer. Gathers put the input at the rank's shard of the output,
  // scatters the output at the rank's shard of the input (msccl-ir.md §2).
  const bool gathers = type_ == CollectiveType::AllGather || type_ == CollectiveType::Gather;
  const bool scatters = type_ == CollectiveType::ReduceScatter || type_ == CollectiveType::Scatter;
  l.regionSizes = {std::max(inputChunks_, outputChunks_), scratchChunks};
  set(Buffer::Scratch, 1, 0, scratchChunks);
  if (gathers) {
    set(Buffer::Output, 0, 0, outputChunks_);
    set(Buffer::Input, 0, rank * shard, inputChunks_);
  } else if (scatters) {
    set(Buffer::Input, 0, 0, inputChunks_);
    set(Buffer::Output, 0, rank * shard, outputChunks_);
  } else {
    set(Buffer::Input, 0, 0, inputChunks_);
    set(Buffer::Output, 0, 0, outputChunks_);
  }
  return l;
}

ChunkValues::Id Collective::initialInput(ChunkValues& values, int32_t rank, int32_t index) const {
  if (!pre_) return values.input(rank, index);
  return valueOf(values, (*pre_)[rank][index]);
}

std::optional<ChunkValues::Id> Collective::expectedOutput(ChunkValues& values, int32_t rank, int32_t index) const {
  const int32_t shard = chunksPerLoop_ / ranks_;
  switch (type_) {
    case CollectiveType::AllReduce: return values.sumOfInputs(ranks_, index);
    case CollectiveType::AllGather: return values.input(index / shard, index % shard);
    case CollectiveType::ReduceScatter: return values.sumOfInputs(ranks_, rank * shard + index);
    case CollectiveType::AllToAll: return values.input(index / shard, rank * shard + index % shard);
    case CollectiveType::Broadcast: return values.input(root_, index);
    case CollectiveType::Reduce:
      if (rank != root_) return std::nullopt;
      return values.sumOfInputs(ranks_, index);
    case CollectiveType::Gather:
      if (rank != root_) return std::nullopt;
      return values.input(index / shard, index % shard);
    case CollectiveType::Scatter: return values.input(root_, rank * shard + index);
    case CollectiveType::AllToNext:
      if (rank == 0) return std::nullopt;
      return values.input(rank - 1, index);
    case CollectiveType::Custom: {
      const auto& atoms = post_[rank][index];
      if (!atoms) return std::nullopt;
      return valueOf(values, *atoms);
    }
  }
  return std::nullopt;
}

}  // namespace ccforge::semantics
