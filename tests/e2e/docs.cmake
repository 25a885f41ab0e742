# Every command of the docs runs as written (issue 16): tests/e2e/doc_commands.sh extracts the
# `ccforge ...` lines of the fenced code blocks of README.md and docs/*.md and runs them, per doc
# file in one fresh directory holding the input files the docs name. Synopsis lines, output lines
# and, without a GPU, `--backend cuda` lines are skipped (the script's header lists the rules).
set(DOC_COMMANDS_TEST "cli: every command in the docs' code blocks runs as written")
add_test(NAME "${DOC_COMMANDS_TEST}"
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/doc_commands.sh $<TARGET_FILE:ccforge> ${PROJECT_SOURCE_DIR})
# Per command: the slowest (a 64 MiB `run` sweep, a tree synthesis on 4 boxes) take about 12 s in
# a Release build; under ASan+UBSan everything runs a few times slower.
if(CCFORGE_SANITIZE)
  set(DOC_COMMAND_LIMIT 300)
  set(DOC_COMMANDS_TIMEOUT 2400)
else()
  set(DOC_COMMAND_LIMIT 60)
  set(DOC_COMMANDS_TIMEOUT 900)
endif()
set_tests_properties("${DOC_COMMANDS_TEST}" PROPERTIES
  TIMEOUT ${DOC_COMMANDS_TIMEOUT} ENVIRONMENT "CCFORGE_DOC_LIMIT=${DOC_COMMAND_LIMIT}")
