// Solves one SMT instance (C, S, R) of a collective on a topology and writes its schedule lowered
// two ways, for bench/synth/ncclize.sh to simulate beside SCCL's `msccl ncclize` output:
//   DIR/ccforge.xml   what `ccforge synth` writes (transfer_layout.hpp: ncclize's layout, or the
//                     compiler's where that exceeds a runtime limit)
//   DIR/compiler.xml  the compiler's own thread blocks and channels (the layout before issue 32)
// usage: lower_instance TOPOLOGY COLLECTIVE C S R DIR   (exit 0 written, 1 usage, 3 not sat or not verified)
#include <fmt/core.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "ir/writer.hpp"
#include "synth/sccl/emit.hpp"
#include "synth/sccl/synthesizer.hpp"
#include "topology/spec_reader.hpp"

namespace {

using namespace ccforge;

bool writeVerified(const std::filesystem::path& path, const ir::Algorithm& algorithm, bool verified) {
  if (!verified) {
    fmt::print(stderr, "lower_instance: {} did not verify\n", path.string());
    return false;
  }
  std::ofstream(path) << ir::toXml(algorithm);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    fmt::print(stderr, "usage: lower_instance TOPOLOGY COLLECTIVE C S R DIR\n");
    return 1;
  }
  const topo::Topology topology = topo::loadTopology(argv[1]);
  const auto collective = semantics::parseCollectiveType(argv[2]);
  if (!collective) {
    fmt::print(stderr, "lower_instance: unknown collective {}\n", argv[2]);
    return 1;
  }
  const int32_t chunks = std::atoi(argv[3]), steps = std::atoi(argv[4]), rounds = std::atoi(argv[5]);
  const std::filesystem::path dir = argv[6];
  synth::sccl::Synthesizer synthesizer(topology, *collective, 0, {});
  const synth::sccl::InstanceResult result = synthesizer.solve(chunks, steps, rounds);
  if (!result.schedule) {
    fmt::print(stderr, "lower_instance: ({},{},{}) is {}\n", chunks, steps, rounds,
               synth::sccl::verdictName(result.verdict));
    return 3;
  }
  const synth::sccl::Problem& problem = synthesizer.problem(chunks);
  const std::string name = fmt::format("{}-{}-c{}-s{}-r{}", argv[1], argv[2], chunks, steps, rounds);
  const synth::sccl::Emitted emitted =
      synth::sccl::emitVerified(problem, *result.schedule, name, ir::Protocol::Simple, (dir / "ccforge.xml").string());
  const synth::sccl::Emitted automatic =
      synth::sccl::emitVerified(problem, *result.schedule, name, ir::Protocol::Simple, (dir / "compiler.xml").string(),
                                semantics::CallForm::OutOfPlace, synth::sccl::TransferLayout::Automatic);
  const bool ok = writeVerified(dir / "ccforge.xml", emitted.algorithm, emitted.verified()) &&
                  writeVerified(dir / "compiler.xml", automatic.algorithm, automatic.verified());
  return ok ? 0 : 3;
}
