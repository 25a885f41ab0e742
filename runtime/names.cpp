#include "runtime/names.hpp"

#include <array>
#include <utility>

namespace ccforge::runtime {
namespace {

constexpr std::array<std::pair<std::string_view, DataType>, kDataTypeCount> kTypes{{
    {"f32", DataType::F32},
    {"f16", DataType::F16},
    {"bf16", DataType::BF16},
    {"f64", DataType::F64},
    {"i32", DataType::I32},
    {"i64", DataType::I64},
    {"u8", DataType::U8},
}};
constexpr std::array<std::pair<std::string_view, ReduceOp>, kReduceOpCount> kOps{{
    {"sum", ReduceOp::Sum},
    {"prod", ReduceOp::Prod},
    {"min", ReduceOp::Min},
    {"max", ReduceOp::Max},
    {"avg", ReduceOp::Avg},
}};

template <class Table, class Value>
std::string_view nameIn(const Table& table, Value v) {
  for (const auto& [name, value] : table)
    if (value == v) return name;
  return "?";
}
template <class Value, class Table>
std::optional<Value> parseIn(const Table& table, std::string_view text) {
  for (const auto& [name, value] : table)
    if (name == text) return value;
  return std::nullopt;
}
template <class Table>
std::string listOf(const Table& table) {
  std::string s;
  for (const auto& entry : table) {
    if (!s.empty()) s += ", ";
    s += entry.first;
  }
  return s;
}

}  // namespace

std::string_view dataTypeName(DataType t) { return nameIn(kTypes, t); }
std::optional<DataType> parseDataType(std::string_view text) { return parseIn<DataType>(kTypes, text); }
std::string_view reduceOpName(ReduceOp op) { return nameIn(kOps, op); }
std::optional<ReduceOp> parseReduceOp(std::string_view text) { return parseIn<ReduceOp>(kOps, text); }
std::string dataTypeList() { return listOf(kTypes); }
std::string reduceOpList() { return listOf(kOps); }

}  // namespace ccforge::runtime
