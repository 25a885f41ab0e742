#include "programs.hpp"

#include <algorithm>

#include "ir/reader.hpp"
#include "verify/collective_resolution.hpp"
#include "verify/connections.hpp"
#include "verify/findings.hpp"
#include "verify/lint.hpp"

namespace ccforge::test {

std::unique_ptr<SmtFixture> SmtFixture::read(const std::filesystem::path& file, const verify::Options& options) {
  std::unique_ptr<SmtFixture> p(new SmtFixture());
  p->algo_ = ir::readAlgorithmFile(file.string(), options.maxInputBytes).algorithm;
  return index(std::move(p), options);
}

std::unique_ptr<SmtFixture> SmtFixture::of(ir::Algorithm algo, const verify::Options& options) {
  std::unique_ptr<SmtFixture> p(new SmtFixture());
  p->algo_ = std::move(algo);
  return index(std::move(p), options);
}

std::unique_ptr<SmtFixture> SmtFixture::index(std::unique_ptr<SmtFixture> p, const verify::Options& options) {
  verify::Findings findings("program", 0);
  verify::ResolvedCollective resolved =
      verify::resolveCollective(p->algo_, options.collective, options.customCollective, findings);
  semantics::LoadResult load = semantics::loadProgram(p->algo_);
  verify::LintResult lint = verify::lint(load, p->algo_, {}, resolved.collective, options, findings);
  if (!load.program) return nullptr;
  p->collective_ = resolved.collective;
  p->bufferLengths_ = lint.bufferLengths;
  p->index_ = std::make_unique<semantics::LoadedProgram>(std::move(*load.program));
  if (!verify::checkConnections(*p->index_, findings)) return nullptr;
  return p;
}

std::vector<std::filesystem::path> corpus() {
  std::vector<std::filesystem::path> out;
  for (const char* dir : {"verify", "msccl-tools"})
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::filesystem::path(CCFORGE_FIXTURES) / dir))
      if (e.path().extension() == ".xml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ccforge::test
