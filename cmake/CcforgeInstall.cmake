# `cmake --install`: the ccforge command, and the libraries a user needs to write DSL programs in
# C++ and compile them (semantics, DSL, compiler, algorithm library) with a CMake package:
#   find_package(ccforge) ; target_link_libraries(app PRIVATE ccforge::codegen ccforge::algorithms)
# (docs/dsl-guide.md, "Your own program").
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CCFORGE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ccforge)

# The libraries name their headers relative to src/ (and specs/algorithms) in the build tree;
# installed, the same names resolve under include/ccforge/.
foreach(target ccforge_ir ccforge_semantics ccforge_dsl)
  set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES
               $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/ccforge>)
endforeach()
set_property(TARGET ccforge_algorithms PROPERTY INTERFACE_INCLUDE_DIRECTORIES
             $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/specs/algorithms>
             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/ccforge/algorithms>)
set_target_properties(ccforge_ir PROPERTIES EXPORT_NAME ir)
set_target_properties(ccforge_semantics PROPERTIES EXPORT_NAME semantics)
set_target_properties(ccforge_dsl PROPERTIES EXPORT_NAME dsl)
set_target_properties(ccforge_codegen PROPERTIES EXPORT_NAME codegen)
set_target_properties(ccforge_algorithms PROPERTIES EXPORT_NAME algorithms)

install(TARGETS ccforge RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ccforge_ir ccforge_semantics ccforge_dsl ccforge_codegen ccforge_algorithms EXPORT ccforgeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/ir ${PROJECT_SOURCE_DIR}/src/semantics ${PROJECT_SOURCE_DIR}/src/dsl
                  ${PROJECT_SOURCE_DIR}/src/codegen
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ccforge FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_SOURCE_DIR}/specs/algorithms/library.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ccforge/algorithms)
install(EXPORT ccforgeTargets NAMESPACE ccforge:: DESTINATION ${CCFORGE_CMAKE_DIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ccforgeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ccforgeConfig.cmake INSTALL_DESTINATION ${CCFORGE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ccforgeConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ccforgeConfig.cmake ${PROJECT_BINARY_DIR}/ccforgeConfigVersion.cmake
        DESTINATION ${CCFORGE_CMAKE_DIR})
