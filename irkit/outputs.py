"""Where irkit writes what it produces: the one rule for every output path
(`irkit-opt -o`, `irkit-report -o/--html/--dot/--graphml/--graph-json/--svg/--png`).

- `-` is standard output.
- A regular file, or a path that does not exist yet, is replaced atomically: the
  text goes to a temporary file in the same folder, which is renamed over the
  target once complete, so a reader never sees half a file and a failed run
  leaves the old one.  The temporary file has no name while it is written
  (Linux `O_TMPFILE`), so a process killed even by SIGKILL leaves nothing
  behind; it is named only for the instant between `linkat` and `rename`, with
  SIGTERM/SIGINT/SIGHUP held off.  Where the file system has no `O_TMPFILE`, a
  named temporary file is used and removed on error and on SIGTERM/SIGINT/SIGHUP.
- A symbolic link is followed: its target is written (or created), the link stays.
- Anything else (a character device such as /dev/null, a FIFO, a socket, /dev/stdout)
  is written straight through: opened for writing, never replaced.
- A directory, a missing folder, a link loop or a path that cannot be written is a
  user error: `OutputError` with one line saying why.
"""

from __future__ import annotations

import ctypes
import errno
import os
import signal
import stat
import sys
import tempfile
from contextlib import contextmanager
from functools import lru_cache

__all__ = ["OutputError", "write_output"]

_DEFERRED_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class OutputError(Exception):
    """An output path irkit cannot write; the message is one line for the user."""


def write_output(path: str, data: str | bytes) -> None:
    """Write `data` (text is written as UTF-8) to `path` by the rule above."""
    if path == "-":
        if isinstance(data, str):
            sys.stdout.write(data)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        return
    payload = data.encode("utf-8", errors="surrogateescape") if isinstance(data, str) else data
    try:
        st = os.stat(path)  # follows links: what the path names in the end
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError(f"cannot write '{path}': {_reason(e)}") from None
    try:
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise OutputError(f"cannot write '{path}': it is a directory")
        if st is not None and not stat.S_ISREG(st.st_mode) or _is_proc_link(path):
            _write_through(path, payload)
            return
        target = os.path.realpath(path) if os.path.islink(path) else path
        _replace_atomically(target, payload, st)
    except OSError as e:
        raise OutputError(f"cannot write '{path}': {_reason(e)}") from None


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def _is_proc_link(path: str) -> bool:
    """/dev/stdout, /dev/fd/N, /proc/self/fd/N: a descriptor of this process, to be
    reopened, never renamed over (even when it is a redirected regular file)."""
    return os.path.islink(path) and os.path.realpath(path).startswith("/proc/")


def _write_through(path: str, payload: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        _write_all(fd, payload)
    finally:
        os.close(fd)


def _write_all(fd: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        n = os.write(fd, view[: 1 << 24])
        view = view[n:]


def _replace_atomically(target: str, payload: bytes, st: os.stat_result | None) -> None:
    directory = os.path.dirname(target) or "."
    if not os.path.isdir(directory):
        raise OutputError(f"cannot write '{target}': directory '{directory}' does not exist")
    umask = os.umask(0)
    os.umask(umask)
    mode = stat.S_IMODE(st.st_mode) if st is not None else (0o666 & ~umask)
    if st is not None and not os.access(target, os.W_OK):
        # the rename would succeed (it needs only the folder), but the user's file says read-only
        raise OSError(errno.EACCES, "Permission denied")
    fd = _unnamed_temp(directory, mode)
    if fd is not None:
        try:
            _keep_owner(fd, st)
            _write_all(fd, payload)
            os.fsync(fd)
            with _signals_deferred():
                tmp = _link_unnamed(fd, directory, os.path.basename(target))
                try:
                    os.replace(tmp, target)
                except BaseException:
                    _unlink_quietly(tmp)
                    raise
        finally:
            os.close(fd)
        return
    _replace_with_named_temp(directory, target, payload, mode)


def _keep_owner(fd: int, st: os.stat_result | None) -> None:
    """Run as root, the replaced file keeps its owner."""
    if st is not None and hasattr(os, "geteuid") and os.geteuid() == 0:
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
        except OSError:
            pass


def _unnamed_temp(directory: str, mode: int) -> int | None:
    """A file in `directory` with no name (O_TMPFILE), or None where unsupported."""
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None or _linkat() is None or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(directory, flag | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), mode)
    except OSError as e:
        if e.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
            return None  # the file system has no O_TMPFILE
        raise


def _link_unnamed(fd: int, directory: str, base: str) -> str:
    """Give the unnamed file a (temporary) name next to the target."""
    for attempt in range(100):
        tmp = os.path.join(directory, f".{base}.irkit-{os.getpid()}-{attempt}")
        if _linkat()(_AT_FDCWD, f"/proc/self/fd/{fd}".encode(), _AT_FDCWD, os.fsencode(tmp), _AT_SYMLINK_FOLLOW) == 0:
            return tmp
        err = ctypes.get_errno()
        if err != errno.EEXIST:
            raise OSError(err, os.strerror(err))
    raise OSError(errno.EEXIST, "no free temporary name")


_AT_FDCWD = -100
_AT_SYMLINK_FOLLOW = 0x400


@lru_cache(maxsize=1)
def _linkat():
    """libc's linkat (Python's os.link does not pass AT_SYMLINK_FOLLOW before 3.12's
    fixes on every platform, and /proc/self/fd/N must be followed), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).linkat
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
    fn.restype = ctypes.c_int
    return fn


def _replace_with_named_temp(directory: str, target: str, payload: bytes, mode: int) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", dir=directory)
    with _removed_on_signal(tmp):
        try:
            try:
                _write_all(fd, payload)
                os.fchmod(fd, mode)
            finally:
                os.close(fd)
            os.replace(tmp, target)
        except BaseException:
            _unlink_quietly(tmp)
            raise


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


@contextmanager
def _signals_deferred():
    """Hold off SIGTERM/SIGINT/SIGHUP for the instant a temporary name exists."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def _removed_on_signal(tmp: str):
    """Remove `tmp` if SIGTERM/SIGINT/SIGHUP arrives while it exists, then die of
    that signal as the process would have."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        _unlink_quietly(tmp)
        signal.signal(signum, previous.get(signum) or signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    previous = {}
    for s in _DEFERRED_SIGNALS:
        previous[s] = signal.signal(s, handler)
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)
