// Places in a text: 1-based line:column, and the map from byte offsets to them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstddef>
#include <string_view>
#include <vector>

namespace ccforge::base {

// 1-based line and column in the file the element came from; 0 when built in memory.
struct TextLocation {
  uint32_t line = 0;
  uint32_t column = 0;
  bool known() const { return line != 0; }
};

class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    lineStarts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') lineStarts_.push_back(i + 1);
  }
  TextLocation at(size_t offset) const {
    auto next = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
    size_t line = static_cast<size_t>(next - lineStarts_.begin());
    size_t column = offset - lineStarts_[line - 1] + 1;
    return {static_cast<uint32_t>(line), static_cast<uint32_t>(column)};
  }

 private:
  std::vector<size_t> lineStarts_;
};

}  // namespace ccforge::base
