# Checks the dependency rules of DEVELOPERS.md ("Layout") on the sources under ROOT:
#  - a source file includes project headers ("<folder>/...") only from the folders its own folder
#    may depend on (the table below, the same as DEVELOPERS.md's);
#  - nothing outside src/cli includes a CLI header, and no build file outside src/cli names a
#    CLI source (tests and libraries must not compile the command's code).
# Prints every offence and fails when there is one.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source dir> -P layout_check.cmake")
endif()

# folder -> the project folders its sources may include (itself included); base is below all.
set(allowed_base base)
set(allowed_ir base ir)
set(allowed_semantics base ir semantics)
set(allowed_dsl base ir semantics dsl)
set(allowed_topology base ir topology)
set(allowed_smt base smt)
set(allowed_verify base ir semantics smt verify)
set(allowed_codegen base ir semantics dsl codegen)
set(allowed_viz base ir semantics dsl codegen topology verify viz)
set(allowed_sim base ir semantics topology sim)
set(allowed_calibrate base ir semantics topology sim calibrate)
set(allowed_driver base ir semantics dsl topology codegen verify driver)
set(allowed_run base ir semantics dsl topology codegen verify driver runtime run)
set(allowed_python base ir semantics dsl python)
set(allowed_synth base ir semantics dsl topology smt verify codegen sim driver synth)
set(allowed_plan base ir semantics dsl topology codegen sim plan)
set(allowed_tune base ir semantics dsl topology smt verify codegen sim driver synth tune)
set(allowed_runtime base ir semantics runtime)
set(allowed_specs base ir semantics dsl)
set(allowed_cli base ir semantics dsl topology smt verify codegen viz sim calibrate driver run synth plan tune runtime python cli)
set(allowed_tests base ir semantics dsl topology smt verify codegen viz sim calibrate driver run synth plan tune runtime)
set(allowed_bench ${allowed_tests})
set(project_folders base ir semantics dsl topology smt verify codegen viz sim calibrate driver run synth plan tune runtime python cli)

set(offences "")
file(GLOB_RECURSE sources RELATIVE ${ROOT}
     ${ROOT}/src/*.cpp ${ROOT}/src/*.hpp ${ROOT}/runtime/*.cpp ${ROOT}/runtime/*.hpp ${ROOT}/runtime/*.cu
     ${ROOT}/runtime/*.cuh ${ROOT}/specs/*.cpp ${ROOT}/specs/*.hpp ${ROOT}/tests/*.cpp ${ROOT}/tests/*.hpp
     ${ROOT}/bench/*.cpp ${ROOT}/bench/*.hpp)
foreach(source IN LISTS sources)
  if(source MATCHES "^src/([a-z_]+)/")
    set(folder ${CMAKE_MATCH_1})
  elseif(source MATCHES "^([a-z_]+)/")
    set(folder ${CMAKE_MATCH_1})
  endif()
  if(NOT DEFINED allowed_${folder})
    list(APPEND offences "${source}: the folder '${folder}' is not in the layout table")
    continue()
  endif()
  file(STRINGS ${ROOT}/${source} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[a-z_]+/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([a-z_]+)/.*" "\\1" included "${line}")
    if(included IN_LIST project_folders AND NOT included IN_LIST allowed_${folder})
      list(APPEND offences "${source}: includes ${included}/, which ${folder} may not depend on: ${line}")
    endif()
  endforeach()
endforeach()

file(GLOB_RECURSE build_files RELATIVE ${ROOT} ${ROOT}/CMakeLists.txt ${ROOT}/cmake/*.cmake ${ROOT}/src/*CMakeLists.txt
     ${ROOT}/runtime/*CMakeLists.txt ${ROOT}/specs/*CMakeLists.txt ${ROOT}/tests/*CMakeLists.txt ${ROOT}/tests/*.cmake
     ${ROOT}/bench/*CMakeLists.txt)
foreach(build_file IN LISTS build_files)
  if(build_file MATCHES "^src/cli/" OR build_file MATCHES "^tests/layout/")
    continue()
  endif()
  file(STRINGS ${ROOT}/${build_file} mentions REGEX "src/cli/")
  foreach(line IN LISTS mentions)
    list(APPEND offences "${build_file}: names a CLI source (only the ccforge executable compiles src/cli): ${line}")
  endforeach()
endforeach()

list(LENGTH sources checked)
if(offences)
  list(JOIN offences "\n  " text)
  message(FATAL_ERROR "layout rules broken (DEVELOPERS.md, \"Layout\"):\n  ${text}")
endif()
message(STATUS "layout: ${checked} source files follow the dependency rules")
