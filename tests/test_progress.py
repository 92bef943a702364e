"""Progress bars appear on a terminal and nowhere else (irkit.progress)."""

import fcntl
import io
import os
import pty
import struct
import subprocess
import sys
import termios

from frontend_corpus import CORPUS

from irkit.progress import progress_bar


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_is_drawn_on_a_terminal(monkeypatch):
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    assert list(progress_bar(range(5), desc="work", unit="step")) == [0, 1, 2, 3, 4]
    assert "work" in term.getvalue() and "/5 [" in term.getvalue()


def test_nothing_is_drawn_when_stderr_is_not_a_terminal(monkeypatch):
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    bar = progress_bar(total=3, desc="work")
    bar.update(3)
    bar.close()
    assert list(progress_bar([1, 2], desc="work")) == [1, 2]
    assert pipe.getvalue() == ""


def test_nothing_is_drawn_when_turned_off(monkeypatch):
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    assert list(progress_bar(range(3), enabled=False)) == [0, 1, 2]
    assert term.getvalue() == ""


def _screen(stderr_on_a_terminal: bool) -> tuple[str, str]:
    argv = [sys.executable, "-m", "irkit.cli.report", "--screen", "--manifest", str(CORPUS / "manifest.jsonl"),
            "--where", "target=hip:gfx90a", "--json"]
    if not stderr_on_a_terminal:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        return done.stdout, done.stderr
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a new pty is 0 columns wide
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=child, text=True)
    os.close(child)
    out = proc.communicate(timeout=300)[0]
    err = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    os.close(main)
    return out, err.decode(errors="replace")


def test_screen_shows_progress_on_a_terminal_and_keeps_stdout_clean():
    out_tty, err_tty = _screen(True)
    out_pipe, err_pipe = _screen(False)
    assert "screen" in err_tty and "config" in err_tty
    assert err_pipe == ""
    assert out_tty == out_pipe and out_pipe.startswith("{")
