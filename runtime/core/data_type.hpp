// Element types and reduction operators the runtime understands. Plain enums shared by
// host and device code; names and parsing live in runtime/names.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ccforge::runtime {

enum class DataType : uint8_t { F32, F16, BF16, F64, I32, I64, U8 };
inline constexpr int kDataTypeCount = 7;

// Sum, Prod, Min and Max run in the interpreter. Avg (sum divided by the number of ranks, as
// ncclAvg) always takes the fallback path, as in MSCCL (msccl-ir.md §2 "Selection and fallback").
enum class ReduceOp : uint8_t { Sum, Prod, Min, Max, Avg };
inline constexpr int kReduceOpCount = 5;

constexpr size_t dataTypeSize(DataType t) {
  switch (t) {
    case DataType::F32: return 4;
    case DataType::F16: return 2;
    case DataType::BF16: return 2;
    case DataType::F64: return 8;
    case DataType::I32: return 4;
    case DataType::I64: return 8;
    case DataType::U8: return 1;
  }
  return 1;
}

constexpr bool isFloatingPoint(DataType t) {
  return t == DataType::F32 || t == DataType::F16 || t == DataType::BF16 || t == DataType::F64;
}

constexpr bool interpreterSupports(ReduceOp op) { return op != ReduceOp::Avg; }

}  // namespace ccforge::runtime
