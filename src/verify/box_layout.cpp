#include "verify/box_layout.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace ccforge::verify {

namespace {
constexpr int32_t kOneBox = std::numeric_limits<int32_t>::max();
}

BoxLayout BoxLayout::consecutive(int32_t gpusPerBox) {
  if (gpusPerBox < 1) throw std::invalid_argument("a box holds at least one GPU");
  BoxLayout layout;
  layout.gpusPerBox_ = gpusPerBox;
  return layout;
}

BoxLayout BoxLayout::oneBox() { return consecutive(kOneBox); }

BoxLayout BoxLayout::ofRanks(std::vector<int32_t> boxOfRank, std::string machine) {
  BoxLayout layout;
  layout.boxOfRank_ = std::move(boxOfRank);
  layout.machine_ = std::move(machine);
  return layout;
}

bool BoxLayout::sameBox(int32_t a, int32_t b) const {
  if (a == b) return true;
  if (gpusPerBox_ > 0) return a / gpusPerBox_ == b / gpusPerBox_;
  const auto listed = static_cast<int32_t>(boxOfRank_.size());
  return a < listed && b < listed && boxOfRank_[static_cast<size_t>(a)] == boxOfRank_[static_cast<size_t>(b)];
}

std::vector<int32_t> BoxLayout::boxesOf(int32_t ranks) const {
  std::vector<int32_t> boxes(static_cast<size_t>(std::max(ranks, 0)));
  int32_t fresh = 0;
  for (int32_t b : boxOfRank_) fresh = std::max(fresh, b + 1);
  for (int32_t r = 0; r < ranks; ++r) {
    if (gpusPerBox_ > 0)
      boxes[static_cast<size_t>(r)] = r / gpusPerBox_;
    else if (r < static_cast<int32_t>(boxOfRank_.size()))
      boxes[static_cast<size_t>(r)] = boxOfRank_[static_cast<size_t>(r)];
    else
      boxes[static_cast<size_t>(r)] = fresh++;
  }
  return boxes;
}

std::string BoxLayout::describe() const {
  if (gpusPerBox_ == kOneBox) return "one box";
  if (gpusPerBox_ > 0) return fmt::format("{} GPU{} per box", gpusPerBox_, gpusPerBox_ == 1 ? "" : "s");
  if (!boxOfRank_.empty()) return "the boxes of " + machine_;
  return "unknown";
}

}  // namespace ccforge::verify
