// Spellings of MSCCL-IR enumerations as they appear in files.
#pragma once

#include <optional>
#include <string_view>

#include "ir/model.hpp"

namespace ccforge::ir {

std::string_view protocolName(Protocol p);
std::optional<Protocol> parseProtocol(std::string_view text);

std::string_view opTypeName(OpType t);
std::optional<OpType> parseOpType(std::string_view text);

char bufferLetter(Buffer b);
std::string_view bufferName(Buffer b);  // "input", "output", "scratch"
std::optional<Buffer> parseBuffer(std::string_view text);

std::string_view computeOpName(ComputeOp o);  // "gemv", "embag", "gemm"
std::optional<ComputeOp> parseComputeOp(std::string_view text);
std::string_view operandTypeName(OperandType t);  // "f32", "i32"
std::optional<OperandType> parseOperandType(std::string_view text);
// The prefix of a fused program's coll attribute: coll="fused-allreduce".
inline constexpr std::string_view kFusedCollPrefix = "fused-";

// Canonical (executor) spelling, e.g. "reducescatter".
std::string_view collectiveName(CollectiveKind k);
// Accepts both generations: reduce_scatter/reducescatter, custom, ...
std::optional<CollectiveKind> parseCollectiveKind(std::string_view text);

}  // namespace ccforge::ir
