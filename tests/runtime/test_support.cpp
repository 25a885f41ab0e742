#include "test_support.hpp"

#include "ir/reader.hpp"

namespace ccforge::runtime::test {

std::string corpusDir() { return CCFORGE_FIXTURES; }
std::string runtimeFixturesDir() { return CCFORGE_RUNTIME_FIXTURES; }

ExecutableProgram compileSample(const ir::Algorithm& algorithm) {
  return loadExecutable(algorithm, algorithm.name, LoadOptions{});
}

ExecutableProgram loadFile(const std::string& path) {
  return loadExecutable(std::filesystem::path(path), LoadOptions{});
}

CallShape callFor(const ExecutableProgram& program, int64_t count, DataType dtype, ReduceOp op) {
  CallShape c;
  c.collective = program.collective();
  c.ranks = program.ranks();
  c.count = count;
  c.dtype = dtype;
  c.op = op;
  c.form =
      program.serves(semantics::CallForm::OutOfPlace) ? semantics::CallForm::OutOfPlace : semantics::CallForm::InPlace;
  return c;
}

Measurement runOnCpu(const ExecutableProgram& program, const CallShape& call, TargetOptions options) {
  options.backend = BackendKind::Cpu;
  return runOn(program, call, options);
}

Measurement runOn(const ExecutableProgram& program, const CallShape& call, const TargetOptions& options) {
  ProgramSet set;
  set.add(program);
  Runtime runtime(std::move(set), makeTarget(options));
  MeasureOptions m;
  m.iterations = 0;
  return measure(runtime, call, m);
}

int64_t countForChunk(const ExecutableProgram& program, int64_t chunkElems) {
  const int64_t m = sizeMultiplier(program.collective(), program.ranks());
  return chunkElems * program.chunksPerLoop() / m;
}

}  // namespace ccforge::runtime::test

#include <catch2/catch.hpp>

#include "runtime/names.hpp"

namespace ccforge::runtime::test {

std::vector<TypeOp> typeOpsFor(semantics::CollectiveType t) {
  std::vector<TypeOp> v;
  if (!reduces(t)) {
    for (DataType d :
         {DataType::F32, DataType::F16, DataType::BF16, DataType::F64, DataType::I32, DataType::I64, DataType::U8})
      v.push_back({d, ReduceOp::Sum});
    return v;
  }
  for (DataType d : {DataType::F32, DataType::I32})
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Min, ReduceOp::Max}) v.push_back({d, op});
  for (DataType d : {DataType::F16, DataType::BF16, DataType::F64, DataType::I64, DataType::U8})
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Max}) v.push_back({d, op});
  return v;
}

void sweep(const ExecutableProgram& program, const SizeRegime& regime, semantics::CallForm form, TargetOptions options,
           int32_t root) {
  for (const TypeOp& to : typeOpsFor(program.collective())) {
    const int64_t elem = static_cast<int64_t>(dataTypeSize(to.dtype));
    const int64_t tile = regime.tileBytes ? regime.tileBytes : program.protocolTileBytes();
    const int64_t chunk =
        std::max<int64_t>(1, static_cast<int64_t>(regime.chunkTiles * static_cast<double>(tile)) / elem);
    CallShape call = callFor(program, countForChunk(program, chunk), to.dtype, to.op);
    call.form = form;
    call.root = root;
    options.tuning.tileBytes = regime.tileBytes;
    INFO(program.source() << ": " << describeCall(call) << ", " << regime.name << " (chunk " << chunk << " elements)");
    const Measurement m = runOn(program, call, options);
    REQUIRE(m.result.path == Path::Interpreter);
    INFO(m.check.describe());
    REQUIRE(m.check.passed());
    REQUIRE(m.check.checked > 0);
  }
}

}  // namespace ccforge::runtime::test
