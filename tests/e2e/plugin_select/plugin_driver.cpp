// Runs the msccl-scheduler plugin's own selection (Azure/msccl-scheduler src/scheduler.cc and src/parser.cc,
// compiled unmodified beside this file) on a list of calls and prints, per call, what each rank runs.
//
// Input, one call per line: FUNC DTYPE ELEMENT_BYTES COUNT INPLACE RANKS (FUNC and DTYPE are the
// mscclFunc_t and ncclDataType_t numbers, ELEMENT_BYTES the type's real size, INPLACE 0 or 1).
// Output, one line per call: for each rank the chosen file's name (no directory) or NCCL.
// The algorithm directory comes from MSCCL_ALGO_DIR, as it does for the runtime.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <curl/curl.h>

#include "parser.h"

extern mscclSchedulerInterface mscclScheduler;

namespace {
std::vector<std::string> loadedPaths;  // a handle is an index into this

[[noreturn]] void curlCalled() {
  std::fprintf(stderr, "plugin_driver: the plugin called libcurl; MSCCL_ALGO_DIR must be set\n");
  std::abort();
}

std::string fileName(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

// The buffers one rank passes for the call, laid out as a real in-place or out-of-place call is: the
// pointers are compared, never read.
void layBuffers(mscclSchedulerParam& p, size_t elementBytes, bool inPlace) {
  char* const base = reinterpret_cast<char*>(uintptr_t{1} << 40);
  char* const other = reinterpret_cast<char*>(uintptr_t{1} << 44);
  const size_t rankOffset = static_cast<size_t>(p.rank) * p.count * elementBytes;
  if (!inPlace) {
    p.sendBuff = base;
    p.recvBuff = other;
  } else if (p.func == mscclFuncAllGather || p.func == mscclFuncGather) {
    p.recvBuff = base;
    p.sendBuff = base + rankOffset;
  } else if (p.func == mscclFuncReduceScatter || p.func == mscclFuncScatter) {
    p.sendBuff = base;
    p.recvBuff = base + rankOffset;
  } else {
    p.sendBuff = base;
    p.recvBuff = base;
  }
}
}  // namespace

extern "C" {
ncclResult_t mscclLoadAlgo(const char* path, mscclAlgoHandle_t* handle, int) {
  loadedPaths.push_back(path);
  *handle = static_cast<mscclAlgoHandle_t>(loadedPaths.size() - 1);
  return ncclSuccess;
}
ncclResult_t mscclUnloadAlgo(mscclAlgoHandle_t) { return ncclSuccess; }
}

CURLcode curl_global_init(long) { curlCalled(); }
void curl_global_cleanup() { curlCalled(); }
CURL* curl_easy_init() { curlCalled(); }
CURLcode curl_easy_setopt(CURL*, CURLoption, ...) { curlCalled(); }
CURLcode curl_easy_perform(CURL*) { curlCalled(); }
void curl_easy_cleanup(CURL*) { curlCalled(); }
const char* curl_easy_strerror(CURLcode) { curlCalled(); }
curl_slist* curl_slist_append(curl_slist*, const char*) { curlCalled(); }

int main() {
  if (std::getenv("MSCCL_ALGO_DIR") == nullptr) {
    std::fprintf(stderr, "plugin_driver: set MSCCL_ALGO_DIR to the algorithm directory\n");
    return 2;
  }
  if (mscclScheduler.init() != ncclSuccess) {
    std::fprintf(stderr, "plugin_driver: the plugin's init failed\n");
    return 2;
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    int func = 0, dtype = 0, inPlace = 0, ranks = 0;
    size_t elementBytes = 0, count = 0;
    if (!(in >> func >> dtype >> elementBytes >> count >> inPlace >> ranks)) {
      std::fprintf(stderr, "plugin_driver: bad input line: %s\n", line.c_str());
      return 2;
    }
    std::string out;
    for (int rank = 0; rank < ranks; ++rank) {
      mscclSchedulerParam p{};
      p.count = count;
      p.dataType = static_cast<ncclDataType_t>(dtype);
      p.func = static_cast<mscclFunc_t>(func);
      p.rank = rank;
      p.nRanks = ranks;
      layBuffers(p, elementBytes, inPlace != 0);
      if (mscclScheduler.selectAlgo(&p) != ncclSuccess) {
        std::fprintf(stderr, "plugin_driver: selectAlgo failed\n");
        return 2;
      }
      out += (rank ? " " : "") + (p.scheduled ? fileName(loadedPaths.at(p.handle)) : std::string("NCCL"));
    }
    std::cout << out << "\n";
  }
  mscclScheduler.teardown();
  return 0;
}
