# Positions in the user's script and the errors the front end raises.
import os
import sys

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_positions = {}
# Set by an importer that builds the program itself (the SCCL JSON importer): every call is
# reported at this (file, line, column) instead of a line of the package.
fixed = None


def _column(frame):
    code = frame.f_code
    table = _positions.get(code)
    if table is None:
        table = list(code.co_positions()) if hasattr(code, 'co_positions') else []
        _positions[code] = table
    i = frame.f_lasti // 2
    if 0 <= i < len(table) and table[i][2] is not None:
        return table[i][2] + 1
    return 1


_PREFIX = _PACKAGE_DIR + os.sep
_UNKNOWN = ('<unknown>', 0, 1)
_places = {}  # (code, instruction offset) -> (file, line, column): a script calls from few places


def caller():
    """(file, line, column) of the innermost frame outside this package: the user's call."""
    if fixed is not None:
        return fixed
    frame = sys._getframe(1)
    # The usual caller is an entry point of the package called from the script. Only frames of
    # the user's code are keys of _places: a hit is the user's call.
    user = frame.f_back
    if user is not None:
        place = _places.get((user.f_code, user.f_lasti))
        if place is not None:
            return place
    while frame is not None and frame.f_code.co_filename.startswith(_PREFIX):
        frame = frame.f_back
    if frame is None:
        return _UNKNOWN
    key = (frame.f_code, frame.f_lasti)
    place = _places.get(key)
    if place is None:
        place = _places[key] = (frame.f_code.co_filename, frame.f_lineno, _column(frame))
    return place


class LocatedError(Exception):
    """An error that names a place in the user's script."""

    def __init__(self, message, where=None):
        super().__init__(message)
        self.message = message
        self.where = where if where is not None else caller()

    def located(self):
        f, line, col = self.where
        return f'{f}:{line}:{col}: error: {self.message}'


class ProgramError(LocatedError):
    """The program is wrong: a failed postcondition, a copy over a missing link. Exit 10."""


class UnsupportedError(LocatedError):
    """The script uses something ccforge's front end does not provide. Exit 2."""


def unsupported(what, hint=''):
    raise UnsupportedError(f'{what} is not supported by ccforge' + (f': {hint}' if hint else ''))
