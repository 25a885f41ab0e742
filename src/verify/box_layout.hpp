// Which ranks share a box, as far as `verify` is told. It decides where slot back-pressure may
// order data: inside a box the receiving GPU returns a slot as it consumes the data, across boxes
// the network proxy returns it when the network send completes (docs/verify.md "Connections
// across boxes").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ccforge::verify {

class BoxLayout {
 public:
  // Unknown: any two ranks may be in different boxes.
  BoxLayout() = default;
  // Ranks numbered box by box, `gpusPerBox` (>= 1) to a box.
  static BoxLayout consecutive(int32_t gpusPerBox);
  // Every rank in one box (ccforge's own interpreter, which runs all ranks in one process).
  static BoxLayout oneBox();
  // Rank r in box boxOfRank[r] (a machine's layout); ranks past the list in boxes of their own.
  static BoxLayout ofRanks(std::vector<int32_t> boxOfRank, std::string machine);

  bool known() const { return gpusPerBox_ > 0 || !boxOfRank_.empty(); }
  bool sameBox(int32_t a, int32_t b) const;
  // The box of each of `ranks` ranks, numbered so that equal numbers mean one box (a witness's
  // record of the layout it was found under).
  std::vector<int32_t> boxesOf(int32_t ranks) const;
  // "unknown", "8 GPUs per box", "one box", "the boxes of dgx1-2".
  std::string describe() const;

 private:
  int32_t gpusPerBox_ = 0;  // 0: not consecutive
  std::vector<int32_t> boxOfRank_;
  std::string machine_;
};

}  // namespace ccforge::verify
