# Runs a user's script for `ccforge compile` / `ccforge dot` (src/python/script_runner.cpp) and
# turns whatever it raises into (status, exit code, "FILE:LINE:COL: error: message"): the user
# sees where their script went wrong, never a traceback from inside ccforge.
import os
import runpy
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


def run(script, args):
    import _ccforge
    from msccl.language._where import ProgramError, UnsupportedError
    sys.argv = [script] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name='__main__')
        return ('finished', 0, '')
    except SystemExit as e:
        code = e.code
        if code is None or code == 0:
            return ('finished', 0, '')
        if isinstance(code, int):
            return ('exited', code, '')
        return ('exited', 1, f'{script}:1:1: error: {code}')
    except _ccforge.DslError as e:
        message, f, line, col = e.args
        return ('wrong', 10, f'{f}:{line}:{col or 1}: error: {message}')
    except ProgramError as e:
        return ('wrong', 10, e.located())
    except UnsupportedError as e:
        return ('failed', 2, e.located())
    except RecursionError as e:
        return ('failed', 2, _located(_user_frame(e.__traceback__, script), script, f'RecursionError: {e}'))
    except Exception as e:
        name = type(e).__name__
        text = f'{name}: {e}' if str(e) else name
        return ('failed', 2, _located(_user_frame(e.__traceback__, script), script, text))
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
