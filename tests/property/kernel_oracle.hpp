// The property test's second oracle (issue 27): a small reference interpreter of MSCCL-IR written
// from msccl-executor-nccl's parser and kernel, sharing nothing with ccforge's own reading of the IR
// (not ir::readAlgorithm, not LoadedProgram, not Collective, not the step-kind table):
//   - the XML is read with expat directly;
//   - steps become transmissions as `mscclAlgoProcessXml` builds them (src/misc/msccl/msccl_parser.cc
//     at c6f6b36, lines 458-655): a `nop` only carries dependencies to the next transmission, a `re`
//     that continues a run (same dstbuf, dstoff and srcbuf, depid -1) joins the previous one, whose
//     count and hasdep become the last step's, and the run ends after a hasdep or when the block's
//     16th reduction is reached (MSCCL_MAX_REDUCE_FUSION counts the block's reductions, not the run's);
//   - the kernel's loops (src/device/msccl_kernel.cu lines 203-310): tile iterations, transmissions,
//     blocks of at most maxAllowedCount chunks; a dependency waits until the block it names published
//     a flag of at least (tile iteration, step), where the step counter advances by one per
//     transmission plus its extra dependencies and extra reductions, as the kernel counts them;
//   - a connection (sender, receiver, channel) is a FIFO of `slots` transfers; every prims call
//     (one block of chunks) is one transfer.
// Values are symbolic: a chunk holds the multiset of input chunks summed into it (or markers of
// uninitialised memory), per tile iteration. The postconditions are written here again from their
// definitions (NCCL's in-place conventions: nccl.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ccforge::property::oracle {

// One input chunk (rank, index); a value is a sorted multiset of them.
using Source = std::pair<int32_t, int32_t>;
using Value = std::vector<int64_t>;

// What the call must compute: sizes per rank, the in-place aliasing, the required outputs.
struct Postcondition {
  int32_t ranks = 0;
  int32_t inputChunks = 0;
  int32_t outputChunks = 0;
  // In place, one buffer per rank: where the input and the output start in it (chunks).
  std::vector<int32_t> inPlaceInputBase, inPlaceOutputBase;
  bool servesInPlace = true;
  std::vector<std::vector<std::optional<Value>>> output;  // [rank][chunk]; nullopt: unconstrained
};

// The eight collectives MSCCL-IR names (allreduce, allgather, reducescatter, alltoall, broadcast,
// reduce, gather, scatter) on `ranks` ranks with `chunks` chunks per loop.
Postcondition standardPostcondition(const std::string& collective, int32_t ranks, int32_t chunks, int32_t root);
// A collective given as data: output chunk (rank, index) must hold the sum of `sources`; out of place.
struct RequiredChunk {
  int32_t rank = 0, index = 0;
  std::vector<Source> sources;
};
Postcondition customPostcondition(int32_t ranks, int32_t inputChunks, int32_t outputChunks,
                                  const std::vector<RequiredChunk>& required);

struct Configuration {
  int32_t tiles = 1;            // tile iterations per chunk
  int32_t maxAllowedCount = 1;  // chunks per transfer at most
  int32_t slots = 2;            // transfers in flight per connection
};
// Transfers in flight per connection: NCCL_STEPS (8) buffers, of which one Simple transfer takes
// MSCCL_CHUNKSTEPS = NCCL_STEPS/2 (src/include/msccl/msccl_struct.h:24), one LL/LL128 transfer one.
int32_t protocolSlots(const std::string& proto);

enum class Ending { Finished, Deadlock, Refused };
struct Outcome {
  Ending ending = Ending::Finished;
  std::string detail;                                  // why it was refused, who waits in a deadlock, leftovers
  std::set<std::pair<int32_t, int32_t>> wrongOutputs;  // (rank, output chunk), when finished
  int32_t leftoverTransfers = 0;                       // sent but never received, when finished
};

// The program as the executor's parser reads it; `refusal` says why it would not load (empty: loads).
struct OracleProgram;
struct ParsedProgram {
  std::shared_ptr<const OracleProgram> program;
  std::string refusal;
  std::string proto;
  std::string collective;  // the coll attribute, without a fused- prefix
  bool inPlace = false, outOfPlace = false;
};
// `maxSteps`: MSCCL_MAX_NUM_STEPS, a build setting (64 by default: makefiles/common.mk:19).
ParsedProgram parse(const std::string& xml, int32_t maxSteps = 64);

// One call of the program in one configuration.
Outcome run(const OracleProgram& program, const Postcondition& post, bool inPlace, const Configuration& configuration);

}  // namespace ccforge::property::oracle
