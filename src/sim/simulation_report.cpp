#include "sim/simulation_report.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <sstream>

#include "base/byte_size.hpp"
#include "base/json_document.hpp"
#include "ir/names.hpp"

namespace ccforge::sim {

using nlohmann::ordered_json;

std::string simulationText(const std::string& file, const ir::Algorithm& a, const topo::Topology& t, Arch arch,
                           const SimulationReport& r) {
  std::ostringstream out;
  out << "simulate " << file << " on " << t.name << ": " << a.collName << ", " << a.gpus.size() << " ranks, "
      << ir::protocolName(a.proto) << ", " << a.nchannels << (a.nchannels == 1 ? " channel" : " channels") << ", arch "
      << archName(arch) << "\n";
  out << std::setw(12) << "size" << std::setw(14) << "time_us" << std::setw(13) << "algbw_GBps" << std::setw(13)
      << "busbw_GBps"
      << "\n";
  bool outside = false;
  out << std::fixed << std::setprecision(2);
  for (const SizeResult& s : r.results) {
    out << std::setw(12) << base::byteSizeName(s.bytes) << std::setw(14) << s.timeUs << std::setw(13) << s.algbwGBps
        << std::setw(13) << s.busbwGBps << (s.inSizeWindow ? "" : "  *") << "\n";
    outside = outside || !s.inSizeWindow;
  }
  if (outside) out << "* outside the algorithm's minBytes..maxBytes: the runtime would not select it\n";
  return out.str();
}

std::string simulationJson(const std::string& file, const ir::Algorithm& a, const topo::Topology& t, Arch arch,
                           const SimulationReport& r) {
  ordered_json j;
  j["file"] = file;
  j["algorithm"] = a.name;
  j["collective"] = a.collName;
  j["ranks"] = a.gpus.size();
  j["protocol"] = ir::protocolName(a.proto);
  j["topology"] = t.name;
  j["arch"] = archName(arch);
  j["busbw_factor"] = r.busbwFactor;
  ordered_json results = ordered_json::array();
  for (const SizeResult& s : r.results)
    results.push_back({{"size_bytes", s.bytes},
                       {"time_us", s.timeUs},
                       {"algbw_GBps", s.algbwGBps},
                       {"busbw_GBps", s.busbwGBps},
                       {"in_size_window", s.inSizeWindow},
                       {"tile_iterations", s.iterations},
                       {"transfers", s.transfers},
                       {"rank_skew_us", s.rankSkewUs}});
  j["results"] = results;
  return base::jsonDocument(j);
}

}  // namespace ccforge::sim
