// Spellings of runtime enumerations on the command line and in messages.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/core/data_type.hpp"

namespace ccforge::runtime {

std::string_view dataTypeName(DataType t);  // "f32", "f16", "bf16", "f64", "i32", "i64", "u8"
std::optional<DataType> parseDataType(std::string_view text);
std::string_view reduceOpName(ReduceOp op);  // "sum", "prod", "min", "max", "avg"
std::optional<ReduceOp> parseReduceOp(std::string_view text);
// "f32, f16, ..." for error messages.
std::string dataTypeList();
std::string reduceOpList();

}  // namespace ccforge::runtime
