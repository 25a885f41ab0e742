# Installs ccforge into a scratch prefix, builds docs/examples/chain-broadcast against it, runs it
# and verifies what it writes. Variables: BUILD_DIR, EXAMPLE, WORK, CCFORGE, and SANITIZE_FLAGS (the
# sanitizer build's libraries need the same flags in the program that links them).
file(REMOVE_RECURSE ${WORK})
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "failed (${code}): ${ARGV}\n${out}\n${err}")
  endif()
  message("${out}${err}")
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix)
run(${CMAKE_COMMAND} -S ${EXAMPLE} -B ${WORK}/build -G Ninja -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_FLAGS=${SANITIZE_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK}/build -j2)
run(${WORK}/build/chain_broadcast ${WORK}/chain.xml)
run(${CCFORGE} verify --collective broadcast:0 ${WORK}/chain.xml)
