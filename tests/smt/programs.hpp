// Fixtures of the SMT tests: programs read from disk or built in memory, indexed the way the
// verifier indexes them, with the collective and buffer layouts the verifier would use.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "semantics/collective.hpp"
#include "ir/model.hpp"
#include "verify/options.hpp"
#include "verify/step_ref.hpp"

namespace ccforge::test {

class SmtFixture {
 public:
  // nullptr when the program's structure or connections are broken (no semantic checks run).
  static std::unique_ptr<SmtFixture> read(const std::filesystem::path& file, const verify::Options& options = {});
  static std::unique_ptr<SmtFixture> of(ir::Algorithm algo, const verify::Options& options = {});

  const ir::Algorithm& algorithm() const { return algo_; }
  const semantics::LoadedProgram& index() const { return *index_; }
  const std::optional<semantics::Collective>& collective() const { return collective_; }
  const std::vector<std::array<int32_t, 3>>& bufferLengths() const { return bufferLengths_; }

  SmtFixture(const SmtFixture&) = delete;
  SmtFixture& operator=(const SmtFixture&) = delete;

 private:
  SmtFixture() = default;
  static std::unique_ptr<SmtFixture> index(std::unique_ptr<SmtFixture> p, const verify::Options& options);

  ir::Algorithm algo_;
  std::optional<semantics::Collective> collective_;
  std::vector<std::array<int32_t, 3>> bufferLengths_;
  std::unique_ptr<semantics::LoadedProgram> index_;
};

// Every fixture of the corpus: tests/fixtures/verify/** and tests/fixtures/msccl-tools/**, sorted.
std::vector<std::filesystem::path> corpus();

}  // namespace ccforge::test
