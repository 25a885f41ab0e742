#include "runtime/host_memory.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/byte_size.hpp"
#include "base/limits.hpp"
#include "runtime/launch_plan.hpp"
#include "runtime/names.hpp"

namespace ccforge::runtime {

void checkHostMemory(const CallShape& call, const ExecutableProgram* program) {
  const long double elem = static_cast<long double>(dataTypeSize(call.dtype));
  const long double ranks = call.ranks;
  long double limit = static_cast<long double>(base::limits::kMaxRunBufferBytes);
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && pageSize > 0) limit = std::min(limit, static_cast<long double>(pages) * pageSize * 3 / 4);
  auto refuse = [&](const std::string& need) {
    throw base::LimitExceeded(
        fmt::format("--count {}: the call needs {} of host memory, over the limit of {} "
                    "(the smaller of 16 GiB and 3/4 of this machine's memory; docs/limits.md)",
                    call.count, need, base::approximateByteSize(static_cast<double>(limit))));
  };
  // No buffer holds more than count x ranks elements, and the ranks are capped: past this
  // bound the sizes could overflow, and the need (at least count x ranks elements) is far over.
  const long double bound = static_cast<long double>(call.count) * ranks * ranks * 4 * elem;
  if (bound > static_cast<long double>(int64_t{1} << 62))
    refuse("far more than " + base::approximateByteSize(static_cast<double>(limit)));
  long double bytes = 0;
  try {
    for (int32_t r = 0; r < call.ranks; ++r) {
      const BufferSizes b = bufferSizes(call, r);
      bytes += 2 * elem * (static_cast<long double>(b.inputElems) + std::max(b.outputElems, b.regionElems));
    }
  } catch (const std::invalid_argument& e) {
    throw base::LimitExceeded(e.what());
  }
  if (bytes > limit) refuse("about " + base::approximateByteSize(static_cast<double>(bytes)));
  if (!program) return;
  const std::vector<uint64_t> scratch = scratchBytesOf(*program, call);
  const auto largest = static_cast<int32_t>(std::max_element(scratch.begin(), scratch.end()) - scratch.begin());
  long double scratchBytes = 0;
  for (uint64_t s : scratch) scratchBytes += static_cast<long double>(s);
  if (bytes + scratchBytes <= limit) return;
  throw ProgramRejected(
      program->source(), program->gpuWhere(largest),
      fmt::format("rank {} declares s_chunks={}: with count {} x {} its scratch takes {}, and the call needs about {} "
                  "of host memory in all, over the limit of {} (the smaller of 16 GiB and 3/4 of this machine's "
                  "memory; docs/limits.md)",
                  largest, program->scratchChunks(largest), call.count, dataTypeName(call.dtype),
                  base::approximateByteSize(static_cast<double>(scratch[largest])),
                  base::approximateByteSize(static_cast<double>(bytes + scratchBytes)),
                  base::approximateByteSize(static_cast<double>(limit))),
      true);
}

}  // namespace ccforge::runtime
