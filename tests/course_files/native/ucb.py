"""Written for these tests in the shape of the course's ucb.py: @main runs only for the program itself,
@trace prints each call and its value, interact opens a console (never called by these files)."""

import code
import functools
import inspect
import sys

_PREFIX = ''


def main(fn):
    """Call FN with the command line arguments when its module is run as a program."""
    if inspect.stack()[1][0].f_locals['__name__'] == '__main__':
        fn(*sys.argv[1:])
    return fn


def trace(fn):
    """Print each call of FN, indented by depth, and what it returned."""
    @functools.wraps(fn)
    def wrapped(*args, **kwds):
        global _PREFIX
        shown = ', '.join([repr(a) for a in args] + ['{0}={1!r}'.format(k, v) for k, v in kwds.items()])
        log('{0}({1}):'.format(fn.__name__, shown))
        _PREFIX += '    '
        try:
            value = fn(*args, **kwds)
        finally:
            _PREFIX = _PREFIX[:-4]
        log('{0}({1}) -> {2}'.format(fn.__name__, shown, value))
        return value
    return wrapped


def log(message):
    """Print MESSAGE after the current indentation."""
    print(_PREFIX + str(message).replace('\n', '\n' + _PREFIX))


def log_current_line():
    """Print the line the caller is at."""
    frame = inspect.stack()[1]
    log('Current line: File "{f[1]}", line {f[2]}, in {f[3]}'.format(f=frame))


def interact(msg=None):
    """Open a console in the caller's scope."""
    frame = inspect.currentframe().f_back
    namespace = frame.f_globals.copy()
    namespace.update(frame.f_locals)
    code.interact(msg, None, namespace)
