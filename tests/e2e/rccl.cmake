# End-to-end tests of the rccl runtime profile against the algorithms ROCm/rccl ships
# (tests/fixtures/rccl/README.md; docs/verify.md, "Runtime profiles").
set(CCFORGE_RCCL ${CMAKE_CURRENT_SOURCE_DIR}/../fixtures/rccl)
set(CCFORGE_GUNZIP_DIR ${CMAKE_CURRENT_SOURCE_DIR}/gunzip_dir.sh)
add_test(NAME "cli: verify --profile rccl: RCCL's shipped algorithm directory exits 0"
  COMMAND ${CCFORGE_GUNZIP_DIR} ${CCFORGE_RCCL}/msccl-algorithms -- 0
  --has "12 of 12 files verified \\(rccl profile\\); exit code 0"
  -- $<TARGET_FILE:ccforge> verify --profile rccl @DIR@)
add_test(NAME "cli: verify --profile rccl: the unit-test rings need instructions RCCL's kernels lack"
  COMMAND ${CCFORGE_GUNZIP_DIR} ${CCFORGE_RCCL}/msccl-unit-test-algorithms -- 10
  --has "error: rank 0 tb 0 step 1: 'rrs' is not in rccl's kernels .*\\[limits.unsupported-op\\]"
  --has "0 of 3 files verified \\(rccl profile\\); exit code 10"
  -- $<TARGET_FILE:ccforge> verify --profile rccl @DIR@)
add_test(NAME "cli: verify: the same rings verify for the executor, whose kernels have every instruction"
  COMMAND ${CCFORGE_GUNZIP_DIR} ${CCFORGE_RCCL}/msccl-unit-test-algorithms -- 0
  --has "3 of 3 files verified \\(msccl-executor profile\\); exit code 0"
  -- $<TARGET_FILE:ccforge> verify @DIR@)
