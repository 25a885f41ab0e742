#include "ir/writer.hpp"

#include <fmt/format.h>

#include <iterator>

#include "base/xml_escape.hpp"
#include "ir/names.hpp"

namespace ccforge::ir {
namespace {

void appendAlgo(std::string& out, const Algorithm& algo) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "<algo name=\"{}\" proto=\"{}\" nchannels=\"{}\" nchunksperloop=\"{}\" ngpus=\"{}\" coll=\"{}\"",
                 base::xmlEscaped(algo.name), protocolName(algo.proto), algo.nchannels, algo.nchunksperloop, algo.ngpus,
                 algo.collName);
  if (algo.inplace) fmt::format_to(it, " inplace=\"{}\"", *algo.inplace ? 1 : 0);
  if (algo.outofplace) fmt::format_to(it, " outofplace=\"{}\"", *algo.outofplace ? 1 : 0);
  if (algo.minBytes) fmt::format_to(it, " minBytes=\"{}\"", *algo.minBytes);
  if (algo.maxBytes) fmt::format_to(it, " maxBytes=\"{}\"", *algo.maxBytes);
  out += ">\n";
  if (algo.collectiveSpec)
    out += "  <!-- " + std::string(kCollectiveSpecComment) + " " + *algo.collectiveSpec + " -->\n";
}

}  // namespace

void writeXml(const Algorithm& algo, const std::function<void(std::string_view)>& sink) {
  std::string out;
  appendAlgo(out, algo);
  sink(out);
  auto it = std::back_inserter(out);
  for (const Gpu& gpu : algo.gpus) {
    out.clear();
    fmt::format_to(it, "  <gpu id=\"{}\" i_chunks=\"{}\" o_chunks=\"{}\" s_chunks=\"{}\">\n", gpu.id, gpu.inputChunks,
                   gpu.outputChunks, gpu.scratchChunks);
    for (const Operand& o : gpu.operands)
      fmt::format_to(it, "    <operand id=\"{}\" name=\"{}\" dtype=\"{}\" rows=\"{}\" cols=\"{}\" layout=\"{}\"/>\n",
                     o.id, base::xmlEscaped(o.name), operandTypeName(o.dtype), o.rows, o.cols,
                     o.columnMajor ? "col" : "row");
    if (gpu.product)
      fmt::format_to(it, "    <product op=\"{}\" a=\"{}\" b=\"{}\" rows=\"{}\" cols=\"{}\"/>\n",
                     computeOpName(gpu.product->op), gpu.product->a, gpu.product->b, gpu.product->rows,
                     gpu.product->cols);
    for (const ThreadBlock& tb : gpu.threadBlocks) {
      fmt::format_to(it, "    <tb id=\"{}\" send=\"{}\" recv=\"{}\" chan=\"{}\">\n", tb.id, tb.send, tb.recv, tb.chan);
      for (const Step& st : tb.steps) {
        fmt::format_to(it,
                       "      <step s=\"{}\" type=\"{}\" srcbuf=\"{}\" srcoff=\"{}\" dstbuf=\"{}\" dstoff=\"{}\" "
                       "cnt=\"{}\" depid=\"{}\" deps=\"{}\" hasdep=\"{}\"",
                       st.s, opTypeName(st.type), st.srcOperand ? 'w' : bufferLetter(st.srcbuf), st.srcoff,
                       st.dstOperand ? 'w' : bufferLetter(st.dstbuf), st.dstoff, st.cnt, st.depid, st.deps,
                       st.hasdep ? 1 : 0);
        if (st.type == OpType::Compute)
          fmt::format_to(it, " op=\"{}\" row=\"{}\" nrows=\"{}\"", computeOpName(st.op), st.row, st.nrows);
        out += "/>\n";
      }
      out += "    </tb>\n";
    }
    out += "  </gpu>\n";
    sink(out);
  }
  sink("</algo>\n");
}

std::string toXml(const Algorithm& algo) {
  std::string out;
  out.reserve(128 + algo.stepCount() * 128);
  writeXml(algo, [&](std::string_view piece) { out += piece; });
  return out;
}

void writeAlgorithm(std::ostream& out, const Algorithm& algo) {
  writeXml(algo, [&](std::string_view piece) { out << piece; });
}

}  // namespace ccforge::ir
