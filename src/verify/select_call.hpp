// `ccforge select`: which file of an algorithm directory one NCCL call runs (or NCCL's own
// algorithm), under each executor selector, rank by rank, and why every other file does not
// take it (docs/verify.md "Which file runs a call"). The tests are semantics/selection.hpp's.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "semantics/selection.hpp"

namespace ccforge::verify {

struct SelectRequest {
  ir::CollectiveKind coll = ir::CollectiveKind::AllReduce;
  std::optional<int32_t> ranks;  // nullopt: every rank count of the directory's files of `coll`
  semantics::CallForm form = semantics::CallForm::OutOfPlace;
  const semantics::NcclDataType* type = nullptr;
  // Exactly one of the two: the call's size as the selectors compare it with minBytes/maxBytes
  // (count x element size, x ranks for allgather, reducescatter and alltoall), or its count.
  std::optional<uint64_t> bytes;
  std::optional<uint64_t> count;
  std::optional<int32_t> root;  // broadcast and reduce only
};

// One file's first failed test for the call as one group of ranks sees it.
struct FileTest {
  std::string path;
  semantics::Rejection rejection = semantics::Rejection::None;
  std::string why;  // "accepts the call", "the window 0..1048576 bytes does not hold ..."
};

// The ranks that see the call alike and the file they run.
struct RankChoice {
  std::vector<int32_t> ranks;  // ascending
  semantics::CallForm seen = semantics::CallForm::OutOfPlace;
  std::vector<std::string> takers;  // files that accept it, in path order
  std::vector<FileTest> tests;      // every file of the directory, in path order
};

struct SelectorAnswer {
  semantics::Selector selector = semantics::Selector::Internal;
  int32_t ranks = 0;  // 0: no file of the directory is for this collective
  uint64_t count = 0;
  int32_t selectorTypeSize = 0;  // what the selector multiplies the count by (-1: plugin bf16/fp8)
  uint64_t selectorBytes = 0;    // the size it compares with the windows (size_t arithmetic)
  std::vector<RankChoice> choices;
  // Every rank runs the same file (or every rank NCCL) and the selector's file order fixes which.
  bool determined = true;
  std::optional<std::string> runs;  // that file when determined; nullopt: NCCL
  std::vector<std::string> notes;
};

// Throws InputError for an entry of the directory that does not read as an algorithm file (run
// `ccforge verify DIR` for what the runtimes do with it) and std::invalid_argument for a request
// that makes no sense (bytes not a multiple of the element size, a root for an unrooted
// collective, a rank count below 1, a root outside the ranks).
std::vector<SelectorAnswer> selectCall(const std::string& directory, const SelectRequest& request,
                                       const std::vector<semantics::Selector>& selectors);

// The text `ccforge select` prints.
void writeSelectAnswers(std::ostream& out, const SelectRequest& request, const std::vector<SelectorAnswer>& answers);

// Whether every answer is determined (exit 0) or some selector's ranks disagree or the order is
// unspecified (exit 10).
bool allDetermined(const std::vector<SelectorAnswer>& answers);

}  // namespace ccforge::verify
