# Installs ccforge into a scratch prefix and uses it as an outside project would:
#  1. builds docs/examples/chain-broadcast against the CMake package, runs it and verifies what it
#     writes with the installed command;
#  2. builds tests/e2e/data/install_consumer (verify, simulate and bounds in-process, headers as
#     <ccforge/...>, C++20 from the targets' interface) with CMake, and again with pkg-config and
#     the C++ compiler alone, and runs both on the chain broadcast;
#  3. compiles every installed header (one translation unit) with g++ and with clang++-14 when
#     they are installed (issue 13: the headers compile with GCC 12 and clang 14).
# Variables: BUILD_DIR, EXAMPLE, CONSUMER, TOPOLOGY, WORK, CCFORGE, CXX (the compiler of the
# build) and SANITIZE_FLAGS (the sanitizer build's libraries need the same flags in the program
# that links them).
file(REMOVE_RECURSE ${WORK})
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "failed (${code}): ${ARGV}\n${out}\n${err}")
  endif()
  message("${out}${err}")
  set(out "${out}" PARENT_SCOPE)
endfunction()
set(PREFIX ${WORK}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})

# 1. The DSL example.
run(${CMAKE_COMMAND} -S ${EXAMPLE} -B ${WORK}/build -G Ninja -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_FLAGS=${SANITIZE_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK}/build -j2)
run(${WORK}/build/chain_broadcast ${WORK}/chain.xml)
run(${CCFORGE} verify --collective broadcast:0 ${WORK}/chain.xml)
if(NOT out MATCHES "verdict: VERIFIED")
  message(FATAL_ERROR "the chain broadcast the installed example wrote does not verify:\n${out}")
endif()

# 2. In-process verification, simulation and bounds: CMake package, then pkg-config.
run(${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/consumer -G Ninja -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_FLAGS=${SANITIZE_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK}/consumer -j2)
run(${WORK}/consumer/ccforge_consumer ${WORK}/chain.xml ${TOPOLOGY})
# A consumer without the runtime component never looks for the CUDA toolkit (issue 26, item 6).
file(STRINGS ${WORK}/consumer/CMakeCache.txt cuda_entries REGEX "^CUDAToolkit_")
if(cuda_entries)
  message(FATAL_ERROR "the consumer of verify, sim, synth and topology looked for CUDA: ${cuda_entries}")
endif()

file(GLOB_RECURSE pc_files ${PREFIX}/*/ccforge.pc)
list(LENGTH pc_files pc_count)
if(NOT pc_count EQUAL 1)
  message(FATAL_ERROR "ccforge.pc is not installed once under ${PREFIX}: ${pc_files}")
endif()
get_filename_component(pc_dir ${pc_files} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
execute_process(COMMAND pkg-config --cflags --libs ccforge RESULT_VARIABLE code OUTPUT_VARIABLE pc_flags
                ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs ccforge failed: ${err}")
endif()
message("pkg-config: ${pc_flags}")
if(pc_flags MATCHES "cudart|nccl|ccforge_runtime")
  message(FATAL_ERROR "pkg-config --libs ccforge brings the interpreter or CUDA: ${pc_flags}")
endif()
execute_process(COMMAND pkg-config --libs ccforge-runtime RESULT_VARIABLE code OUTPUT_VARIABLE pc_runtime
                ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT code EQUAL 0 OR NOT pc_runtime MATCHES "-lccforge_runtime" OR NOT pc_runtime MATCHES "-lccforge_verify")
  message(FATAL_ERROR "pkg-config --libs ccforge-runtime: ${pc_runtime} ${err}")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
separate_arguments(sanitize UNIX_COMMAND "${SANITIZE_FLAGS}")
run(${CXX} -std=c++20 ${sanitize} ${CONSUMER}/main.cpp -o ${WORK}/consumer_pc ${pc_flags})
run(${WORK}/consumer_pc ${WORK}/chain.xml ${TOPOLOGY})

# 3. Every installed header, with each compiler. The CUDA backend's headers need the CUDA
# toolkit's and are left out.
file(GLOB_RECURSE headers RELATIVE ${PREFIX}/include ${PREFIX}/include/ccforge/*.hpp)
list(FILTER headers EXCLUDE REGEX "^ccforge/runtime/cuda/")
list(LENGTH headers header_count)
if(header_count LESS 100)
  message(FATAL_ERROR "only ${header_count} headers installed under ${PREFIX}/include/ccforge")
endif()
set(all_headers "")
foreach(h ${headers})
  string(APPEND all_headers "#include <${h}>\n")
endforeach()
file(WRITE ${WORK}/all_headers.cpp "${all_headers}int main() { return 0; }\n")
set(include_flags -I${PREFIX}/include -I${PREFIX}/include/ccforge -I${PREFIX}/include/ccforge/algorithms)
find_program(GXX g++)
find_program(CLANGXX14 clang++-14)
set(compilers ${GXX} ${CLANGXX14})
if(NOT CLANGXX14)
  message(WARNING "clang++-14 not found: the installed headers are compiled with g++ only")
endif()
foreach(compiler ${compilers})
  run(${compiler} -std=c++20 -fsyntax-only -Wall -Wextra ${include_flags} ${WORK}/all_headers.cpp)
  message("${header_count} headers compile with ${compiler}")
endforeach()
message("install test: done")
