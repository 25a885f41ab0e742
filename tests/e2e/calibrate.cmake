# End-to-end tests of `ccforge simulate --nccl` and `ccforge calibrate` (docs/simulate.md,
# docs/calibrate.md) on the public logs of tests/fixtures/nccl-tests-logs.
set(LOGS ${FIXTURES}/nccl-tests-logs)
set(CALIBRATE_OUT ${CMAKE_CURRENT_BINARY_DIR}/calibrate_out)
file(MAKE_DIRECTORY ${CALIBRATE_OUT})

ccforge_cli_test("simulate --nccl: H100 allreduce, NCCL's choice per size" 0
  --has "^# ccforge simulate --nccl allreduce on h100-1: 8 ranks in 1 box, sm90, -g 1"
  --has "NCCL's view: 12 channels of 30 GB/s \\(24 CTAs\\), NVLS 8 heads of 40 GB/s"
  --has "^  1073741824 +268435456 +float +sum +-1 +3972.5" --has "nvls Simple \\(16 channels\\)" --has "ring LL "
  -- simulate --nccl allreduce h100-1 -b 8 -e 1G -f 8)
ccforge_cli_test("simulate --nccl: the environment NCCL reads" 0
  --has "NCCL_ALGO=Ring" --has "1073741824.*5275.5" --lacks "nvls"
  -- simulate --nccl allreduce h100-1 -b 1G --env NCCL_ALGO=Ring)
ccforge_cli_test("simulate --nccl: json" 0
  --has "\"program\": \"nccl ring Simple \\(16 channels\\)\"" --has "\"busbw_GBps\""
  -- simulate --nccl allgather a100-2 -b 1G --format json)
ccforge_cli_test("simulate --nccl: a collective NCCL does not have" 1
  --has "NCCL has no gather collective" -- simulate --nccl gather h100-1 -b 1M)
ccforge_cli_test("simulate --nccl: an unknown variable" 1
  --has "--env NCCL_BUFFSIZE: the model takes NCCL_ALGO" -- simulate --nccl allreduce h100-1 -b 1M --env NCCL_BUFFSIZE=1)
ccforge_cli_test("simulate --nccl: NCCL_ALGO in NCCL's syntax" 1
  --has "NCCL_ALGO: unknown name 'bogus'" -- simulate --nccl allreduce h100-1 -b 1M --env "NCCL_ALGO=allreduce:ring,bogus")
ccforge_cli_test("simulate --nccl: not a collective" 1
  --has "--nccl takes a collective" -- simulate --nccl bogus h100-1 -b 1M)

ccforge_cli_test("calibrate: an H100 box from its allreduce log, written and read back" 0
  --has "^calibrate h100-1 from 1 table" --has "nvlink_efficiency .* fitted" --has "launch_us .* not determined"
  --has "error left"
  -- calibrate ${LOGS}/h100-1x8-allreduce-nccl2.29.txt -t h100-1 -o ${CALIBRATE_OUT}/h100.json)
ccforge_cli_test("calibrate: the calibrated spec is a topology simulate reads" 0
  --has "^# ccforge simulate --nccl allgather on h100-1" --has "33554432"
  -- simulate --nccl allgather ${CALIBRATE_OUT}/h100.json -b 32M -e 64M)
set_tests_properties("cli: calibrate: the calibrated spec is a topology simulate reads" PROPERTIES
  DEPENDS "cli: calibrate: an H100 box from its allreduce log, written and read back")
ccforge_cli_test("calibrate: a log of 8 GPUs against a machine of 16" 2
  --has "h100-1x8-allreduce-nccl2.29.txt:11:1: error: the log ran on 8 GPUs but topology h100-2 has 16"
  -- calibrate ${LOGS}/h100-1x8-allreduce-nccl2.29.txt -t h100-2)
ccforge_cli_test("calibrate: a truncated log" 2
  --has "nccl_log_truncated.txt:5:5: error: truncated row: 7 of the header's 13 columns \\(header at line 2\\)"
  -- calibrate ${CCFORGE_E2E_DATA}/nccl_log_truncated.txt -t h100-1)
ccforge_cli_test("calibrate: a log that does not name its collective" 2
  --has "nccl_log_unnamed.txt:1:1: error: the log does not say which collective this table is .*give --collective"
  -- calibrate ${CCFORGE_E2E_DATA}/nccl_log_unnamed.txt -t h100-1)
ccforge_cli_test("calibrate: --collective names it" 0
  --has "nccl_log_unnamed.txt \\(allreduce, -g 1\\)"
  -- calibrate ${CCFORGE_E2E_DATA}/nccl_log_unnamed.txt -t h100-1 --collective allreduce)
ccforge_cli_test("calibrate: an unknown --collective" 1
  --has "--collective: unknown collective 'bogus'" -- calibrate ${CCFORGE_E2E_DATA}/nccl_log_unnamed.txt -t h100-1 --collective bogus)
ccforge_cli_test("calibrate: a missing log" 2 --has "no-such-log.txt:1:1: error: no such file" -- calibrate no-such-log.txt -t h100-1)
ccforge_cli_test("calibrate: json report" 0
  --has "\"parameters\": " --has "\"predicted_before_us\"" --has "\"from_256MiB\""
  -- calibrate ${LOGS}/a100-80g-2x8-crusoe-ib-allreduce-dstack.txt -t a100-2 --format json)
