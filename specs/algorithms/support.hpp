// What the library's programs share: argument access and parameter checks.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "library.hpp"

namespace ccforge::algorithms {

inline int32_t arg(const Arguments& a, std::string_view name) { return static_cast<int32_t>(a.find(name)->second); }

inline void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

inline bool powerOfTwo(int32_t n) { return n > 0 && (n & (n - 1)) == 0; }

inline CallForm callForm(const Arguments& a) { return arg(a, "inplace") ? CallForm::InPlace : CallForm::OutOfPlace; }

}  // namespace ccforge::algorithms
