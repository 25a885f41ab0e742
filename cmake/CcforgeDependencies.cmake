# Every dependency comes from a Debian package installed by scripts/setup (see docs/dependencies.md).
find_package(EXPAT REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(Boost 1.74 REQUIRED)
find_package(Threads REQUIRED)
if(CCFORGE_TESTS)
  find_package(Catch2 2 REQUIRED)
endif()

# Z3 and cvc5 ship no CMake package on Debian: import them by hand.
find_path(Z3_INCLUDE_DIR z3++.h REQUIRED)
find_library(Z3_LIBRARY z3 REQUIRED)
add_library(ccforge::z3 UNKNOWN IMPORTED)
set_target_properties(ccforge::z3 PROPERTIES IMPORTED_LOCATION ${Z3_LIBRARY} INTERFACE_INCLUDE_DIRECTORIES ${Z3_INCLUDE_DIR})

find_path(CVC5_INCLUDE_DIR cvc5/cvc5.h REQUIRED)
find_library(CVC5_LIBRARY cvc5 REQUIRED)
add_library(ccforge::cvc5 UNKNOWN IMPORTED)
set_target_properties(ccforge::cvc5 PROPERTIES IMPORTED_LOCATION ${CVC5_LIBRARY} INTERFACE_INCLUDE_DIRECTORIES ${CVC5_INCLUDE_DIR})

# The Python front end (src/python) embeds Debian's CPython through pybind11 (pybind11-dev,
# python3-dev). The interpreter is Debian's /usr/bin/python3 even where another python3 comes
# first on PATH (pyenv, venvs): its packages are the ones scripts/setup installs.
if(NOT DEFINED PYTHON_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(PYTHON_EXECUTABLE /usr/bin/python3)
endif()
find_package(pybind11 2.10 CONFIG REQUIRED)
