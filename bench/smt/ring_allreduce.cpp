#include "ring_allreduce.hpp"

namespace ccforge::bench {

// Per channel, rank r's thread block sends to r+1 and receives from r-1. Over the ring it
// sends chunk r, then reduces and forwards r-1, ..., reduces, stores and forwards r+1 (the
// fully reduced chunk), forwards r, r-1, ..., and finally stores r+2.
ir::Algorithm ringAllReduce(int32_t ranks, int32_t channels, ir::Protocol protocol) {
  ir::Algorithm a;
  a.name = "ring_allreduce";
  a.proto = protocol;
  a.nchannels = channels;
  a.nchunksperloop = ranks * channels;
  a.ngpus = ranks;
  a.coll = ir::CollectiveKind::AllReduce;
  a.collName = "allreduce";
  a.inplace = true;
  a.outofplace = false;
  a.minBytes = 0;
  a.maxBytes = 0;
  for (int32_t r = 0; r < ranks; ++r) {
    ir::Gpu g;
    g.id = r;
    g.inputChunks = ranks * channels;
    g.outputChunks = ranks * channels;
    for (int32_t c = 0; c < channels; ++c) {
      ir::ThreadBlock tb;
      tb.id = c;
      tb.send = (r + 1) % ranks;
      tb.recv = (r + ranks - 1) % ranks;
      tb.chan = c;
      for (int32_t j = 0; j <= 2 * ranks - 2; ++j) {
        ir::Step s;
        s.s = j;
        s.type = j == 0              ? ir::OpType::Send
                 : j < ranks - 1     ? ir::OpType::RecvReduceSend
                 : j == ranks - 1    ? ir::OpType::RecvReduceCopySend
                 : j < 2 * ranks - 2 ? ir::OpType::RecvCopySend
                                     : ir::OpType::Recv;
        const int32_t chunk = ((r - j) % ranks + ranks) % ranks * channels + c;
        s.srcbuf = s.dstbuf = ir::Buffer::Input;
        s.srcoff = s.dstoff = chunk;
        s.cnt = 1;
        tb.steps.push_back(s);
      }
      g.threadBlocks.push_back(std::move(tb));
    }
    a.gpus.push_back(std::move(g));
  }
  return a;
}

}  // namespace ccforge::bench
