# `cmake --install`: the ccforge command, every library with its headers, a CMake package and a
# pkg-config file (docs/cmake-package.md):
#   find_package(ccforge) ; target_link_libraries(app PRIVATE ccforge::verify ccforge::sim ...)
#   pkg-config --cflags --libs ccforge
# Headers are installed as include/ccforge/<folder>/... (src/<folder>, runtime/, and the
# algorithm library's library.hpp under include/ccforge/algorithms/). Users write
# #include <ccforge/verify/verifier.hpp>; the headers themselves include each other as
# "semantics/protocol.hpp", so the installed targets (and ccforge.pc) also put include/ccforge on
# the include path.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CCFORGE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ccforge)
set(CCFORGE_INCLUDE_ROOT ${CMAKE_INSTALL_INCLUDEDIR}/ccforge)

# Library target, exported name, headers' folder in the source tree (relative to the project).
set(CCFORGE_EXPORTED_LIBRARIES
    ccforge_base base src/base
    ccforge_ir ir src/ir
    ccforge_semantics semantics src/semantics
    ccforge_dsl dsl src/dsl
    ccforge_topology topology src/topology
    ccforge_smt smt src/smt
    ccforge_verify verify src/verify
    ccforge_codegen codegen src/codegen
    ccforge_viz viz src/viz
    ccforge_sim sim src/sim
    ccforge_driver driver src/driver
    ccforge_synth synth src/synth
    ccforge_runtime runtime runtime
    ccforge_algorithms algorithms specs/algorithms)

set(CCFORGE_EXPORTED_TARGETS)
list(LENGTH CCFORGE_EXPORTED_LIBRARIES n)
math(EXPR last "${n} - 1")
foreach(i RANGE 0 ${last} 3)
  math(EXPR j "${i} + 1")
  math(EXPR k "${i} + 2")
  list(GET CCFORGE_EXPORTED_LIBRARIES ${i} target)
  list(GET CCFORGE_EXPORTED_LIBRARIES ${j} name)
  list(GET CCFORGE_EXPORTED_LIBRARIES ${k} folder)
  list(APPEND CCFORGE_EXPORTED_TARGETS ${target})
  # The headers need C++20; consumers get it from the target.
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  # In the build tree the headers are named relative to src/ (the runtime's relative to the
  # project, the algorithm library's to its folder); installed, the same names resolve under
  # include/ccforge, and include/ gives the documented <ccforge/...> spelling.
  if(name STREQUAL "runtime")
    set(build_dirs ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/src)
  elseif(name STREQUAL "algorithms")
    set(build_dirs ${PROJECT_SOURCE_DIR}/specs/algorithms)
  else()
    set(build_dirs ${PROJECT_SOURCE_DIR}/src)
  endif()
  set(install_dirs ${CMAKE_INSTALL_INCLUDEDIR} ${CCFORGE_INCLUDE_ROOT})
  if(name STREQUAL "algorithms")
    list(APPEND install_dirs ${CCFORGE_INCLUDE_ROOT}/algorithms)
  endif()
  set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES
               "$<BUILD_INTERFACE:${build_dirs}>" "$<INSTALL_INTERFACE:${install_dirs}>")
  set(excluded PATTERN "samples" EXCLUDE)  # the runtime's test programs
  if(name STREQUAL "runtime" AND NOT CCFORGE_RUNTIME_CUDA)
    list(APPEND excluded PATTERN "cuda" EXCLUDE)  # the CUDA backend, not built
  endif()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${folder}/ DESTINATION ${CCFORGE_INCLUDE_ROOT}/${name}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh" ${excluded})
endforeach()

install(TARGETS ccforge RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${CCFORGE_EXPORTED_TARGETS} EXPORT ccforgeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT ccforgeTargets NAMESPACE ccforge:: DESTINATION ${CCFORGE_CMAKE_DIR})

# The package recreates the solver libraries' imported targets (ccforge::z3, ccforge::cvc5) and,
# in a CUDA build, finds the CUDA toolkit the runtime links.
set(CCFORGE_PACKAGE_CUDA ${CCFORGE_RUNTIME_CUDA})
if(NOT CCFORGE_PACKAGE_CUDA)
  set(CCFORGE_PACKAGE_CUDA OFF)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ccforgeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ccforgeConfig.cmake INSTALL_DESTINATION ${CCFORGE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ccforgeConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ccforgeConfig.cmake ${PROJECT_BINARY_DIR}/ccforgeConfigVersion.cmake
        DESTINATION ${CCFORGE_CMAKE_DIR})

# pkg-config: ccforge.pc, every library but the interpreter (static, dependents first) and the
# libraries they need; ccforge-runtime.pc adds the interpreter, and in a CUDA build the CUDA runtime
# and NCCL, so that a consumer that verifies, compiles or simulates never links them. No library
# but the command itself uses the interpreter.
set(CCFORGE_PC_LIBS "-lccforge_algorithms -lccforge_synth -lccforge_viz -lccforge_driver -lccforge_codegen -lccforge_dsl")
string(APPEND CCFORGE_PC_LIBS " -lccforge_verify -lccforge_sim -lccforge_topology -lccforge_smt")
string(APPEND CCFORGE_PC_LIBS " -lccforge_semantics -lccforge_ir -lccforge_base")
set(CCFORGE_PC_REQUIRES "fmt expat zlib z3 nlohmann_json")  # Debian ships their .pc files
set(CCFORGE_PC_DEPS "${CVC5_LIBRARY} -pthread")  # cvc5 has none
set(CCFORGE_RUNTIME_PC_DEPS "-pthread")
if(CCFORGE_RUNTIME_CUDA)
  string(APPEND CCFORGE_RUNTIME_PC_DEPS " ${NCCL_LIBRARY} -L${CUDAToolkit_LIBRARY_DIR} -lcudart")
endif()
# The prefix is found from the file's own place (pkg-config's ${pcfiledir}), so that the file
# stays right under `cmake --install --prefix P` and when the tree is moved.
file(RELATIVE_PATH CCFORGE_PC_PREFIX_FROM_PCFILEDIR "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" CCFORGE_PC_PREFIX_FROM_PCFILEDIR "${CCFORGE_PC_PREFIX_FROM_PCFILEDIR}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/ccforge.pc.in ${PROJECT_BINARY_DIR}/ccforge.pc @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/ccforge-runtime.pc.in ${PROJECT_BINARY_DIR}/ccforge-runtime.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ccforge.pc ${PROJECT_BINARY_DIR}/ccforge-runtime.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
