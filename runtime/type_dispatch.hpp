// Calls f.template operator()<T, Op>() for a runtime (type, op): one instantiation of the
// interpreter per combination. Avg never reaches the interpreter; collectives that do not
// reduce run with Sum (their programs do not reduce).
#pragma once

#include <cstdint>
#include <stdexcept>

#include "runtime/core/numeric.hpp"

namespace ccforge::runtime {

template <class T, class F>
decltype(auto) dispatchOp(ReduceOp op, F&& f) {
  switch (op) {
    case ReduceOp::Sum: return f.template operator()<T, OpSum>();
    case ReduceOp::Prod: return f.template operator()<T, OpProd>();
    case ReduceOp::Min: return f.template operator()<T, OpMin>();
    case ReduceOp::Max: return f.template operator()<T, OpMax>();
    case ReduceOp::Avg: break;
  }
  throw std::logic_error("the interpreter has no instantiation for op avg");
}

template <class F>
decltype(auto) dispatchTypeOp(DataType t, ReduceOp op, F&& f) {
  switch (t) {
    case DataType::F32: return dispatchOp<float>(op, f);
    case DataType::F16: return dispatchOp<Half>(op, f);
    case DataType::BF16: return dispatchOp<BFloat16>(op, f);
    case DataType::F64: return dispatchOp<double>(op, f);
    case DataType::I32: return dispatchOp<int32_t>(op, f);
    case DataType::I64: return dispatchOp<int64_t>(op, f);
    case DataType::U8: return dispatchOp<uint8_t>(op, f);
  }
  throw std::logic_error("unknown data type");
}

// Calls f.template operator()<T>() for a runtime type.
template <class F>
decltype(auto) dispatchType(DataType t, F&& f) {
  switch (t) {
    case DataType::F32: return f.template operator()<float>();
    case DataType::F16: return f.template operator()<Half>();
    case DataType::BF16: return f.template operator()<BFloat16>();
    case DataType::F64: return f.template operator()<double>();
    case DataType::I32: return f.template operator()<int32_t>();
    case DataType::I64: return f.template operator()<int64_t>();
    case DataType::U8: return f.template operator()<uint8_t>();
  }
  throw std::logic_error("unknown data type");
}

}  // namespace ccforge::runtime
