// A pipelined chain broadcast written with the ccforge DSL: the root's buffer, cut into chunks,
// flows rank 0 -> 1 -> ... -> N-1; the whole route is parallelized over two channels. The
// program is compiled for the MSCCL executor and written as MSCCL-IR.
#include <ccforge/codegen/compile_error.hpp>
#include <ccforge/codegen/compiler.hpp>
#include <ccforge/dsl/dsl_error.hpp>
#include <ccforge/dsl/program.hpp>
#include <ccforge/ir/writer.hpp>

#include <fstream>
#include <iostream>

using namespace ccforge;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: chain_broadcast OUT.xml\n";
    return 1;
  }
  constexpr int32_t ranks = 4, chunks = 4;
  try {
    dsl::Program p("chain_broadcast",
                   {.type = semantics::CollectiveType::Broadcast,
                    .ranks = ranks,
                    .chunkFactor = chunks,
                    .form = semantics::CallForm::InPlace,
                    .root = 0},
                   {.protocol = ir::Protocol::LL128});
    p.parallelize(2, [&] {
      for (int32_t i = 0; i < chunks; ++i) {
        dsl::ChunkRef c = p.chunk(0, ir::Buffer::Output, i);
        for (int32_t r = 1; r < ranks; ++r) c = c.copy(r, ir::Buffer::Output, i);
      }
    });
    const codegen::Compiled compiled = codegen::compile(p);  // checks the broadcast postcondition first
    std::ofstream(argv[1]) << ir::toXml(compiled.algorithm);
    std::cerr << "wrote " << argv[1] << ": " << compiled.stats.steps << " steps on " << compiled.stats.channels
              << " channels\n";
  } catch (const dsl::DslError& e) {  // misuse of the DSL: "main.cpp:LINE:COLUMN: error: ..."
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const codegen::CompileError& e) {  // wrong result, or no schedule within the runtime's limits
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
