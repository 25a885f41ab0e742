#!/usr/bin/env bash
# The hostile-script suite (docs/python.md, "Scripts run in a sandbox"): scripts that loop, sleep,
# leave threads behind, exhaust memory, exit oddly, raise BaseExceptions, send signals, write
# files, open sockets, forge the result channel or flood the output. For each: the exit code and
# the located message stated below, an end well within its limit, no file left outside the
# script's temporary directory, that directory removed, and no process of the script left.
# usage: hostile_scripts.sh CCFORGE SANITIZED(0|1)
set -u
ccforge=$(realpath "$1")
sanitized=${2:-0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR" "$work/scripts"
cd "$work" || exit 2
failures=0

# case NAME EXIT SECONDS PATTERN [OPTIONS (default: --script-cpu 2 --script-wall 20)] < SCRIPT
case_() {
  local name=$1 want=$2 seconds=$3 pattern=$4
  shift 4
  local script=$work/scripts/$name.py
  cat >"$script"
  local start end out got
  start=$(date +%s%N)
  [ $# -gt 0 ] || set -- --script-cpu 2 --script-wall 20
  out=$("$ccforge" compile "$script" --script-output 4KiB "$@" -o "$work/$name.xml" 2>&1)
  got=$?
  end=$(date +%s%N)
  local ms=$(((end - start) / 1000000)) problems=()
  [ "$got" = "$want" ] || problems+=("exit code $got, want $want")
  grep -Eq -- "$pattern" <<<"$out" || problems+=("output lacks: $pattern")
  [ "$ms" -le $((seconds * 1000)) ] || problems+=("took $ms ms, more than $seconds s")
  [ ! -e "$work/written_by_script" ] || problems+=("the script wrote a file outside its directory")
  [ -z "$(ls -A "$TMPDIR")" ] || problems+=("the script's temporary directory was left behind")
  sleep 0.2
  if pgrep -f "$script" >/dev/null; then
    problems+=("a process of the script is still running")
    pkill -9 -f "$script"
  fi
  if [ ${#problems[@]} -gt 0 ]; then
    failures=$((failures + 1))
    echo "FAIL $name: ${problems[*]}"
    printf '%s\n' "$out" | head -c 4000
    echo
  else
    echo "ok   $name: exit $got in $ms ms"
  fi
}

loc='[a-z_0-9]+\.py:[0-9]+:[0-9]+: error: '

case_ busy_loop 2 15 "${loc}the script used up its CPU time limit of 2 s \(--script-cpu\)" <<'EOF'
while True:
    pass
EOF
case_ huge_power 2 15 "${loc}the script used up its CPU time limit of 2 s" <<'EOF'
x = 10 ** (10 ** 9)
EOF
case_ long_sleep 2 15 "long_sleep\.py:2:1: error: the script ran past its wall-clock limit of 2 s \(--script-wall\)" \
  --script-cpu 20 --script-wall 2 <<'EOF'
import time
time.sleep(1e5)
EOF
case_ endless_thread 2 20 "${loc}the script ran past its wall-clock limit of 2 s" --script-cpu 20 --script-wall 2 <<'EOF'
import threading, time
threading.Thread(target=lambda: time.sleep(1e5)).start()
EOF
case_ caught_limit 2 20 "${loc}the script (used up its CPU time|ran past its wall-clock) limit" <<'EOF'
while True:
    try:
        while True:
            pass
    except BaseException:
        pass
EOF
case_ read_stdin 2 15 "read_stdin\.py:1:1: error: EOFError" <<'EOF'
input()
EOF
if [ "$sanitized" = 0 ]; then  # AddressSanitizer builds run without the address-space limit
  case_ memory_growth 2 60 "memory_growth\.py:3:[0-9]+: error: MemoryError: out of memory \(the script may use 1073741824 bytes, --script-memory\)" \
    --script-memory 1GiB --script-cpu 30 --script-wall 40 <<'EOF'
blocks = []
while True:
    blocks.append(bytearray(1 << 24))
EOF
fi
case_ exit_256 2 15 "exit_256\.py:2:1: error: the script called sys.exit\(256\)" <<'EOF'
import sys
sys.exit(256)
EOF
case_ exit_10 2 15 "exit_10\.py:2:1: error: the script called sys.exit\(10\)" <<'EOF'
import sys
sys.exit(10)
EOF
case_ exit_522 2 15 "exit_522\.py:2:1: error: the script called sys.exit\(522\)" <<'EOF'
import sys
sys.exit(522)
EOF
case_ exit_huge 2 15 "exit_huge\.py:2:1: error: the script called sys.exit\(1180591620717411303424\)" <<'EOF'
import sys
sys.exit(2 ** 70)
EOF
case_ exit_text 2 15 "exit_text\.py:2:1: error: the script called sys.exit\('bye'\)" <<'EOF'
import sys
sys.exit('bye')
EOF
case_ keyboard_interrupt 2 15 "keyboard_interrupt\.py:1:1: error: KeyboardInterrupt" <<'EOF'
raise KeyboardInterrupt
EOF
case_ generator_exit 2 15 "generator_exit\.py:1:1: error: GeneratorExit" <<'EOF'
raise GeneratorExit
EOF
case_ base_exception 2 15 "base_exception\.py:3:1: error: Mine: not an Exception" <<'EOF'
class Mine(BaseException):
    pass
raise Mine('not an Exception')
EOF
case_ os_exit 2 15 "os_exit\.py:1:1: error: the script's process ended \(exit status 3\) without handing back a result" <<'EOF'
import os; os._exit(3)
EOF
# The script's process is the init of its own PID namespace where the kernel allows one: a signal
# it sends itself is then ignored, and it ends without a program.
case_ signal_self 2 15 "signal_self\.py:1:1: error: (the script's process was ended by signal 11|the script built no program)" <<'EOF'
import os, signal
os.kill(os.getpid(), signal.SIGSEGV)
EOF
# Signals to other processes (kill(-1) included) are only sent where the sandbox can stop them:
# a PID namespace, or Landlock's signal scope (ABI 6).
if unshare --user --pid --fork true 2>/dev/null ||
  python3 -c 'import ctypes, sys; sys.exit(0 if ctypes.CDLL(None).syscall(444, None, 0, 1) >= 6 else 1)'; then
case_ signal_others 2 15 "signal_others\.py:1:1: error: the script built no program" <<'EOF'
import os, signal
for sig in (signal.SIGABRT, signal.SIGSEGV, signal.SIGALRM, signal.SIGKILL):
    for pid in (os.getppid(), 0, -1):
        try:
            os.kill(pid, sig)
        except OSError:
            pass
EOF
else
  echo "skip signal_others: this kernel offers neither a PID namespace nor Landlock's signal scope"
fi
case_ write_outside 2 15 "write_outside\.py:2:1: error: PermissionError: " <<EOF
import os
open('$work/written_by_script', 'w').write('x')
EOF
case_ shell_command 2 15 "shell_command\.py:1:1: error: the script built no program" <<EOF
import os
os.system('touch $work/written_by_script; echo x > $work/written_by_script')
EOF
case_ write_own_directory 2 15 "write_own_directory\.py:1:1: error: the script built no program" <<'EOF'
import os, tempfile
with tempfile.NamedTemporaryFile(delete=False) as f:
    f.write(b'scratch')
assert os.path.getsize(f.name) == 7
EOF
case_ network 2 15 "network\.py:3:1: error: (PermissionError|ConnectionRefusedError|OSError)" <<'EOF'
import socket
s = socket.socket()
s.connect(('127.0.0.1', 9))
EOF
case_ forged_result 2 15 "forged_result\.py:1:1: error: the script's result does not read back" <<'EOF'
import os
for fd in range(3, 256):
    try:
        os.write(fd, b'ccforge-script-result-1\xff')
    except OSError:
        pass
EOF
case_ output_flood 2 15 "output_flood\.py:1:1: note: [0-9]+ bytes of the script's output were left out past its limit of 4096 bytes \(--script-output\)" <<'EOF'
for i in range(20000):
    print('a line the limit cuts', i)
EOF
case_ chunk_limit 10 15 "chunk_limit\.py:5:[0-9]+: error: MSCCLProgram: .* over ccforge's limit of 4194304 buffer chunks" <<'EOF'
from msccl.language import *
from msccl.language.collectives import AllGather
from msccl.topologies import *
c = AllGather(2, 10 ** 9, False)
with MSCCLProgram('x', fully_connected(2), c, 1):
    XML()
EOF
case_ chained_copies 10 60 "chained_copies\.py:[0-9]+:[0-9]+: error: .*does not implement allgather" <<'EOF'
from msccl.language import *
from msccl.language.collectives import AllGather
from msccl.topologies import *
with MSCCLProgram('chain', fully_connected(2), AllGather(2, 1, False), 1):
    c = chunk(0, Buffer.input, 0)
    for i in range(30000):
        c = c.copy(i % 2, Buffer.scratch, i)
    XML()
EOF

[ "$failures" = 0 ] && echo "every hostile script ended as documented" && exit 0
echo "$failures hostile script(s) did not end as documented"
exit 1
