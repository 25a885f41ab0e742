#include "ir/names.hpp"

#include <array>
#include <utility>

namespace ccforge::ir {
namespace {

template <typename E, size_t N>
std::optional<E> lookup(const std::array<std::pair<std::string_view, E>, N>& table, std::string_view text) {
  for (const auto& [name, value] : table)
    if (name == text) return value;
  return std::nullopt;
}

template <typename E, size_t N>
std::string_view nameOf(const std::array<std::pair<std::string_view, E>, N>& table, E value) {
  for (const auto& [name, v] : table)
    if (v == value) return name;
  return "?";
}

constexpr std::array<std::pair<std::string_view, Protocol>, 3> kProtocols{{
    {"Simple", Protocol::Simple},
    {"LL", Protocol::LL},
    {"LL128", Protocol::LL128},
}};

constexpr std::array<std::pair<std::string_view, OpType>, 10> kOps{{
    {"s", OpType::Send},
    {"r", OpType::Recv},
    {"rcs", OpType::RecvCopySend},
    {"rrs", OpType::RecvReduceSend},
    {"rrc", OpType::RecvReduceCopy},
    {"rrcs", OpType::RecvReduceCopySend},
    {"cpy", OpType::Copy},
    {"re", OpType::Reduce},
    {"nop", OpType::Nop},
    {"cmp", OpType::Compute},
}};

constexpr std::array<std::pair<std::string_view, ComputeOp>, 3> kComputeOps{{
    {"gemv", ComputeOp::Gemv},
    {"embag", ComputeOp::EmbeddingBag},
    {"gemm", ComputeOp::Gemm},
}};

constexpr std::array<std::pair<std::string_view, OperandType>, 2> kOperandTypes{{
    {"f32", OperandType::F32},
    {"i32", OperandType::I32},
}};

constexpr std::array<std::pair<std::string_view, Buffer>, 3> kBuffers{{
    {"i", Buffer::Input},
    {"o", Buffer::Output},
    {"s", Buffer::Scratch},
}};

// The first spelling of each kind is the canonical one.
constexpr std::array<std::pair<std::string_view, CollectiveKind>, 13> kCollectives{{
    {"allreduce", CollectiveKind::AllReduce},
    {"allgather", CollectiveKind::AllGather},
    {"reducescatter", CollectiveKind::ReduceScatter},
    {"reduce_scatter", CollectiveKind::ReduceScatter},
    {"alltoall", CollectiveKind::AllToAll},
    {"broadcast", CollectiveKind::Broadcast},
    {"reduce", CollectiveKind::Reduce},
    {"gather", CollectiveKind::Gather},
    {"scatter", CollectiveKind::Scatter},
    {"send", CollectiveKind::Send},
    {"recv", CollectiveKind::Recv},
    {"alltoallv", CollectiveKind::AllToAllV},
    {"custom", CollectiveKind::Custom},
}};

}  // namespace

std::string_view protocolName(Protocol p) { return nameOf(kProtocols, p); }
std::optional<Protocol> parseProtocol(std::string_view text) { return lookup(kProtocols, text); }
std::string_view opTypeName(OpType t) { return nameOf(kOps, t); }
std::optional<OpType> parseOpType(std::string_view text) { return lookup(kOps, text); }
char bufferLetter(Buffer b) { return nameOf(kBuffers, b)[0]; }
std::optional<Buffer> parseBuffer(std::string_view text) { return lookup(kBuffers, text); }
std::string_view collectiveName(CollectiveKind k) { return nameOf(kCollectives, k); }
std::optional<CollectiveKind> parseCollectiveKind(std::string_view text) { return lookup(kCollectives, text); }

std::string_view computeOpName(ComputeOp o) { return nameOf(kComputeOps, o); }
std::optional<ComputeOp> parseComputeOp(std::string_view text) { return lookup(kComputeOps, text); }
std::string_view operandTypeName(OperandType t) { return nameOf(kOperandTypes, t); }
std::optional<OperandType> parseOperandType(std::string_view text) { return lookup(kOperandTypes, text); }

std::string_view bufferName(Buffer b) {
  switch (b) {
    case Buffer::Input: return "input";
    case Buffer::Output: return "output";
    case Buffer::Scratch: return "scratch";
  }
  return "?";
}

}  // namespace ccforge::ir
