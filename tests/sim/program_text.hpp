// Small MSCCL-IR programs written out for the simulator tests.
#pragma once

#include <string>
#include <vector>

namespace ccforge::test {

struct StepText {
  std::string type;
  int cnt = 1;
  int depid = -1;
  int deps = -1;
  int hasdep = 0;
};

struct TbText {
  int send = -1;
  int recv = -1;
  int chan = 0;
  std::vector<StepText> steps;
};

// One <algo> with `ranks` GPUs; tbs[rank] lists the rank's thread blocks.
inline std::string programText(const std::string& proto, int chunks, const std::vector<std::vector<TbText>>& tbs) {
  std::string out = "<algo name=\"t\" proto=\"" + proto + "\" nchannels=\"1\" nchunksperloop=\"" +
                    std::to_string(chunks) + "\" ngpus=\"" + std::to_string(tbs.size()) +
                    "\" coll=\"custom\" inplace=\"0\">\n";
  for (size_t rank = 0; rank < tbs.size(); ++rank) {
    out += "  <gpu id=\"" + std::to_string(rank) + "\" i_chunks=\"" + std::to_string(chunks) + "\" o_chunks=\"" +
           std::to_string(chunks) + "\" s_chunks=\"0\">\n";
    for (size_t id = 0; id < tbs[rank].size(); ++id) {
      const TbText& tb = tbs[rank][id];
      out += "    <tb id=\"" + std::to_string(id) + "\" send=\"" + std::to_string(tb.send) + "\" recv=\"" +
             std::to_string(tb.recv) + "\" chan=\"" + std::to_string(tb.chan) + "\">\n";
      for (size_t s = 0; s < tb.steps.size(); ++s) {
        const StepText& st = tb.steps[s];
        out += "      <step s=\"" + std::to_string(s) + "\" type=\"" + st.type +
               "\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"" + std::to_string(st.cnt) +
               "\" depid=\"" + std::to_string(st.depid) + "\" deps=\"" + std::to_string(st.deps) + "\" hasdep=\"" +
               std::to_string(st.hasdep) + "\"/>\n";
      }
      out += "    </tb>\n";
    }
    out += "  </gpu>\n";
  }
  return out + "</algo>\n";
}

}  // namespace ccforge::test
