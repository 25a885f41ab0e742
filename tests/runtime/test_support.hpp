// Helpers shared by the runtime tests: load programs, build calls, run them end to end.
#pragma once

#include <string>
#include <vector>

#include "runtime/harness.hpp"
#include "runtime/loader.hpp"
#include "runtime/runtime.hpp"

namespace ccforge::runtime::test {

// tests/fixtures (shared corpus) and tests/runtime/fixtures.
std::string corpusDir();
std::string runtimeFixturesDir();

ExecutableProgram compileSample(const ir::Algorithm& algorithm);
ExecutableProgram loadFile(const std::string& path);

// A call the program serves: its collective and ranks, the first form it serves unless given.
CallShape callFor(const ExecutableProgram& program, int64_t count, DataType dtype, ReduceOp op);

// Runs `call` on the target with `program` as the only program: one checked run, no timing.
Measurement runOn(const ExecutableProgram& program, const CallShape& call, const TargetOptions& options);
Measurement runOnCpu(const ExecutableProgram& program, const CallShape& call, TargetOptions options = {});

// The smallest count > 0 such that a chunk has `chunkElems` elements.
int64_t countForChunk(const ExecutableProgram& program, int64_t chunkElems);

}  // namespace ccforge::runtime::test

namespace ccforge::runtime::test {

// One size regime of a sweep: the chunk size in bytes as a multiple of the tile, and the tile
// (0: the protocol's own).
struct SizeRegime {
  const char* name;
  double chunkTiles;  // chunk bytes / tile bytes
  int64_t tileBytes;  // override, 0 = protocol default
};
// One transfer carries several chunks (maxAllowedCount > 1), a single tile.
inline constexpr SizeRegime kSmallChunks{"several chunks per transfer", 0.01, 0};
// maxAllowedCount 2 with cnt 3: a step issues a 2-chunk and a 1-chunk transfer.
inline constexpr SizeRegime kTwoChunksPerTransfer{"two chunks per transfer", 0.4, 4096};
// One transfer per chunk, 2 and 3+ tile iterations (small tiles keep the data small).
inline constexpr SizeRegime kTwoTiles{"one chunk per transfer, 2 tiles", 1.6, 512};
inline constexpr SizeRegime kManyTiles{"one chunk per transfer, 4 tiles", 3.3, 512};

struct TypeOp {
  DataType dtype;
  ReduceOp op;
};
// Every op on f32 and i32, sum and max on the other types; sum only when the collective does not reduce.
std::vector<TypeOp> typeOpsFor(semantics::CollectiveType t);

// Runs `program` for every type/op at the regime's size; REQUIREs a correct result for each.
void sweep(const ExecutableProgram& program, const SizeRegime& regime, semantics::CallForm form,
           TargetOptions options = {}, int32_t root = 0);

}  // namespace ccforge::runtime::test
