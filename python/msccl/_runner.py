# Runs a user's script for `ccforge compile` / `ccforge dot` (src/python/script_runner.cpp) and
# turns whatever it raises into (status, "FILE:LINE:COL: error: message"): the user
# sees where their script went wrong, never a traceback from inside ccforge.
import os
import resource
import runpy
import signal
import sys
import traceback

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_STDLIB = os.path.dirname(os.__file__)


def _user_frame(tb, script):
    """The innermost traceback entry in the user's code (not this package, not the stdlib)."""
    best = None
    for entry in traceback.extract_tb(tb):
        f = os.path.abspath(entry.filename)
        if f.startswith(_PACKAGE_DIR + os.sep) or f.startswith(_STDLIB + os.sep) or entry.filename.startswith('<'):
            continue
        best = entry
    return best


def _located(entry, script, message):
    if entry is None:
        return f'{script}:1:1: error: {message}'
    col = (entry.colno + 1) if getattr(entry, 'colno', None) is not None else 1
    return f'{entry.filename}:{entry.lineno}:{col}: error: {message}'


class _LimitReached(BaseException):
    """A sandbox limit, raised at the script's current line (a BaseException, so that the script's
    own `except Exception` does not swallow it)."""


def _raise_at_limit(what, reached):
    # The signal may also come from the script itself (os.kill): only a limit really reached raises.
    def handler(signum, frame):
        if reached():
            raise _LimitReached(what)
    return handler


def _cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _exit_message(code):
    shown = code if isinstance(code, int) else repr(code)
    return (f'the script called sys.exit({shown}); ccforge runs it to build programs, so any exit other '
            'than sys.exit(0) or sys.exit() means it did not run')


def run(script, args, cpu_seconds, wall_seconds, memory_bytes):
    import _ccforge
    from msccl.language._where import ProgramError, UnsupportedError
    # The kernel's limits (script_sandbox.cpp) end the process a few seconds later if the script
    # catches these; the exception is what names the line it was running.
    signal.signal(signal.SIGXCPU, _raise_at_limit(
        f'the script used up its CPU time limit of {cpu_seconds} s (--script-cpu)',
        lambda: _cpu_seconds() >= cpu_seconds * 0.99))
    signal.signal(signal.SIGALRM, _raise_at_limit(
        f'the script ran past its wall-clock limit of {wall_seconds} s (--script-wall)',
        lambda: signal.getitimer(signal.ITIMER_REAL)[0] == 0))
    signal.setitimer(signal.ITIMER_REAL, wall_seconds)
    sys.argv = [script] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name='__main__')
        return ('finished', '')
    except SystemExit as e:
        if e.code is None or e.code == 0:
            return ('finished', '')
        return ('failed', _located(_user_frame(e.__traceback__, script), script, _exit_message(e.code)))
    except _ccforge.DslError as e:
        message, f, line, col = e.args
        return ('wrong', f'{f}:{line}:{col or 1}: error: {message}')
    except ProgramError as e:
        return ('wrong', e.located())
    except UnsupportedError as e:
        return ('failed', e.located())
    except _LimitReached as e:
        return ('failed', _located(_user_frame(e.__traceback__, script), script, str(e)))
    except MemoryError as e:
        text = f'MemoryError: out of memory (the script may use {memory_bytes} bytes, --script-memory)'
        return ('failed', _located(_user_frame(e.__traceback__, script), script, text))
    except BaseException as e:  # noqa: B036 -- every way a script can end is a located error
        name = type(e).__name__
        text = f'{name}: {e}' if str(e) else name
        return ('failed', _located(_user_frame(e.__traceback__, script), script, text))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        sys.stdout.flush()
        sys.stderr.flush()
