"""Run mode's logic on the CPU: timing statistics, the capture/compare protocol with a fake device (a
bytearray per storage, launches as Python functions), the report, and the command's one-line errors."""

import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass

import pytest

from irkit.check import measure
from irkit.check.capture import ArgDifference, Comparison, TimingOptions, check_launch
from irkit.check.render import config_text, run_text
from irkit.check.runmode import build_report

# -- timing ----------------------------------------------------------------------------------------------


def test_median_quantile_interval():
    assert measure.median([3, 1, 2]) == 2 and measure.median([4, 1, 3, 2]) == 2.5
    assert measure.quantile([1, 2, 3, 4, 5], 0.25) == 2
    lo, hi = measure.median_interval(list(range(100)))
    assert 35 < lo < 50 < hi < 65


def fake_times(before_ms, after_ms, noise, seed=1):
    """time_calls that knows which side each call is and returns that side's time with noise."""
    rng = random.Random(seed)
    order = []

    def time_calls(calls):
        out = []
        for call in calls:
            side = call()
            order.append(side)
            base = before_ms if side == "before" else after_ms
            out.append(base * (1 + rng.gauss(0, noise)))
        return out

    return time_calls, order


def test_interleave_resolves_a_two_percent_speedup_and_alternates_order():
    time_calls, order = fake_times(1.00, 0.98, noise=0.01)
    t = measure.interleave(lambda: "before", lambda: "after", time_calls, min_pairs=20, max_pairs=5000)
    s = t.summary()
    assert t.stopped_by == "resolved" and s["verdict"] == "faster"
    assert 0.97 < s["ratio"] < 0.99 and s["ratio_hi"] < 1.0
    assert order[:4] == ["before", "after", "after", "before"]  # ABBA: drift touches both alike


def test_interleave_equal_kernels_are_the_same_and_noise_needs_more_pairs():
    quiet, _ = fake_times(1.0, 1.0, noise=0.002)
    loud, _ = fake_times(1.0, 1.0, noise=0.05)
    a = measure.interleave(lambda: "before", lambda: "after", quiet, max_pairs=5000)
    b = measure.interleave(lambda: "before", lambda: "after", loud, max_pairs=5000)
    assert a.summary()["verdict"] == "same" and b.pairs > a.pairs


def test_interleave_stops_at_the_time_budget():
    ticks = iter(range(1000))
    time_calls, _ = fake_times(1.0, 1.0, noise=0.5)
    t = measure.interleave(lambda: "before", lambda: "after", time_calls, max_seconds=3, clock=lambda: next(ticks))
    assert t.stopped_by == "max_seconds" and t.pairs < 100


# -- capture and compare with a fake device -------------------------------------------------------------


@dataclass
class FakeTensor:
    storage: bytearray
    offset: int
    length: int

    def read(self):
        return self.storage[self.offset:self.offset + self.length]


class FakeBackend:
    """Storages are bytearrays; a snapshot copies each distinct one once (aliasing kept)."""

    def snapshot(self, args):
        return {id(a.storage): bytes(a.storage) for a in args if isinstance(a, FakeTensor)}

    def materialize(self, snap, args):
        fresh = {k: bytearray(v) for k, v in snap.items()}
        return [FakeTensor(fresh[id(a.storage)], a.offset, a.length) if isinstance(a, FakeTensor) else a
                for a in args]

    def compare(self, a, b, args):
        diffs = []
        for i, (x, y) in enumerate(zip(a, b)):
            if isinstance(x, FakeTensor) and x.storage != y.storage:
                n = sum(p != q for p, q in zip(x.storage, y.storage))
                diffs.append(ArgDifference(i, "u8", len(x.storage), n, float(max(abs(p - q) for p, q in
                                                                                 zip(x.storage, y.storage)))))
        return Comparison(not diffs, diffs)

    def time_calls(self, calls):
        for c in calls:
            c()
        return [1.0 for _ in calls]

    def synchronize(self):
        pass


def add_in_place(args):  # x += y, in place, as many real kernels do
    x, y = args
    for i in range(x.length):
        x.storage[x.offset + i] = (x.storage[x.offset + i] + y.storage[y.offset + i]) % 256


def test_in_place_kernels_compare_on_identical_inputs_and_user_tensors_stay_untouched():
    x = FakeTensor(bytearray([1, 2, 3, 4]), 0, 4)
    y = FakeTensor(bytearray([10, 10, 10, 10]), 0, 4)
    opts = TimingOptions(min_pairs=3, max_pairs=3, warmup=1)
    result = check_launch(FakeBackend(), add_in_place, add_in_place, [x, y], opts)
    assert result.comparison.identical and result.original_deterministic is None
    assert x.storage == bytearray([1, 2, 3, 4])  # the program's own launch happens after the check
    assert result.timing.pairs == 10  # one batch of pairs at least


def test_a_wrong_rewrite_is_reported_with_the_argument_and_error():
    def wrong(args):
        add_in_place(args)
        args[0].storage[2] ^= 0x40

    x, y = FakeTensor(bytearray(4), 0, 4), FakeTensor(bytearray([1] * 4), 0, 4)
    result = check_launch(FakeBackend(), add_in_place, wrong, [x, y], TimingOptions(max_pairs=0))
    d = result.to_dict()
    assert not d["bit_identical"] and d["original_deterministic"] is True
    assert d["comparison"]["differences"][0]["index"] == 0 and d["comparison"]["differences"][0]["differing"] == 1
    assert d["timing"] is None


def test_aliased_arguments_stay_aliased_in_the_copies():
    shared = bytearray([5, 5, 5, 5])
    x, y = FakeTensor(shared, 0, 2), FakeTensor(shared, 2, 2)  # two views of one storage
    seen = []
    check_launch(FakeBackend(), lambda a: seen.append(a[0].storage is a[1].storage), lambda a: None, [x, y],
                 TimingOptions(max_pairs=0))
    assert seen == [True]


def test_a_nondeterministic_original_is_flagged():
    counter = iter(range(100))

    def racy(args):
        args[0].storage[0] = next(counter)

    result = check_launch(FakeBackend(), racy, racy, [FakeTensor(bytearray(2), 0, 2)], TimingOptions(max_pairs=0))
    assert not result.comparison.identical and result.original_deterministic is False


# -- report ------------------------------------------------------------------------------------------------


def record(cfg, before, after, identical=True, name="addmm_kernel ADD=True"):
    timing = {"pairs": 20, "before_median_ms": before, "after_median_ms": after, "ratio": after / before,
              "ratio_lo": after / before - 0.01, "ratio_hi": after / before + 0.01, "verdict": "x"}
    return {"name": "addmm_kernel", "status": "checked", "config": dict(cfg, num_warps=8, num_stages=3),
            "family": [name, [4096, 4096, 4096]], "launch_metadata": {"flops": 2 * 4096 ** 3, "name": name},
            "bit_identical": identical, "timing": timing, "triton": "3.6.0", "device": "GPU",
            "static": {"before": {"convert_layout": 2, "shared": 1024}, "after": {"convert_layout": 0, "shared": 512}}}


def test_report_best_config_per_family_and_findings():
    recs = [record({"BLOCK_M": 128}, 0.30, 0.20), record({"BLOCK_M": 256}, 0.25, 0.26, identical=False),
            {"name": "other", "status": "unchanged", "config": {"num_warps": 4}, "triton": "3.6.0"}]
    report = build_report(["python", "p.py"], "propagate-mma", recs)
    (best,) = report["best"]
    assert best["best_before"]["config"]["BLOCK_M"] == 256 and best["best_after"]["config"]["BLOCK_M"] == 128
    assert abs(best["ratio"] - 0.20 / 0.25) < 1e-9 and report["findings"] == ["addmm_kernel"]
    assert abs(recs[0]["timing"]["before_tflops"] - 2 * 4096 ** 3 / 0.30 * 1e-9) < 1e-6
    text = run_text(report)
    assert "unchanged by the pipeline (not compared): other" in text and "tuned optimum" in text and "NO:" in text


def test_a_run_that_timed_nothing_reports_its_checks():
    """--max-pairs 0 compares outputs and times nothing (a pass that decides by timing has timed already)."""
    untimed = dict(record({"BLOCK_M": 128}, 0.30, 0.20), timing=None)
    report = build_report(["python", "p.py"], "propagate-mma", [untimed, record({"BLOCK_M": 256}, 0.25, 0.26)])
    (best,) = report["best"]
    assert best["configs"] == 1 and best["best_after"]["config"]["BLOCK_M"] == 256
    report = build_report(["python", "p.py"], "propagate-mma", [untimed])
    assert report["best"] == [] and "addmm_kernel" in run_text(report)


def test_config_text():
    assert config_text({"BLOCK_M": 128, "BLOCK_N": 256, "ADD": True, "num_warps": 8, "num_stages": 3}) == \
        "128x256 ADD=1 w8 s3"


# -- the command's errors ---------------------------------------------------------------------------------


def _old_triton() -> bool:
    """This Python has a Triton older than run mode needs: then every run reports that first."""
    import importlib.util

    if importlib.util.find_spec("triton") is None:
        return False
    from importlib.metadata import version

    return tuple(int(x) for x in version("triton").split(".")[:2]) < (3, 4)


OLD_TRITON = _old_triton()


def check_cli(argv, gpu):
    env = dict(os.environ, IRKIT_CHECK_ASSUME_GPU=gpu)
    return subprocess.run([sys.executable, "-m", "irkit.check.cli", *argv], capture_output=True, text=True,
                          env=env, check=False)


def test_run_mode_errors_are_one_line_and_exit_1():
    cases = [
        (["-p", "propagate-mma", "--", sys.executable, "-c", "pass"], "1", "no Triton kernel"),
        (["-p", "propagate-mma", "--", sys.executable, "-c", "raise SystemExit(3)"], "1", "status 3"),
        (["-p", "propagate-mma", "--", sys.executable, "-c", "pass"], "0", "needs an NVIDIA or AMD GPU"),
        (["-p", "propagate-mma", "--", "no-such-program-xyz"], "1", "no such program"),
        (["-p", "nope", "--", sys.executable, "-c", "pass"], "1", "unknown pass"),
    ]
    for argv, gpu, words in cases:
        if OLD_TRITON and gpu == "1" and "unknown pass" not in words and "no such program" not in words:
            words = "needs Triton >= 3.4"
        p = check_cli(argv, gpu)
        assert p.returncode == 1 and p.stderr.count("\n") == 1 and words in p.stderr, (argv, p.stderr)


@pytest.mark.skipif(OLD_TRITON, reason="this Python's Triton is too old for run mode (reported first)")
def test_a_crash_says_the_programs_last_line():
    p = check_cli(["-p", "propagate-mma", "--", sys.executable, "-c", "import sys; sys.exit('boom here')"], "1")
    assert p.returncode == 1 and "boom here" in p.stderr.splitlines()[-1]


def test_progress_goes_to_irkit_checks_terminal_only(monkeypatch):
    from irkit.check.hook import ENV_PROGRESS_FD, Progress

    monkeypatch.delenv(ENV_PROGRESS_FD, raising=False)
    assert not Progress().enabled  # no terminal: nothing drawn
    read_fd, write_fd = os.pipe()
    monkeypatch.setenv(ENV_PROGRESS_FD, str(write_fd))
    p = Progress()
    p.timing("addmm_kernel", 50, 100)
    p.clear()
    os.close(write_fd)
    text = os.read(read_fd, 4096).decode()
    assert "addmm_kernel: timing [##########..........] 50 pairs" in text and text.endswith("\r\x1b[2K")


@pytest.mark.skipif(OLD_TRITON, reason="this Python's Triton is too old for run mode (reported first)")
def test_a_crash_without_a_final_newline_is_still_quoted():
    p = check_cli(["-p", "propagate-mma", "--", sys.executable, "-c",
                   "import sys; sys.stderr.write('partial line'); sys.exit(2)"], "1")
    assert p.returncode == 1 and p.stderr.startswith("partial line")
    assert p.stderr.splitlines()[-1].endswith("status 2: partial line")


def test_repeat_times_one_kernel_until_its_median_is_resolved():
    time_calls, order = fake_times(1.0, 1.0, noise=0.01)
    out = measure.repeat(lambda: "before", time_calls, min_reps=20, max_reps=5000)
    assert out["stopped_by"] == "resolved" and 0.99 < out["median_ms"] < 1.01 and set(order) == {"before"}


def test_unchanged_kernels_count_in_the_tuned_optimum():
    fast_unchanged = {"name": "addmm_kernel", "status": "unchanged", "config": {"BLOCK_M": 64, "num_warps": 4},
                      "family": ["addmm_kernel ADD=True", [4096, 4096, 4096]], "triton": "3.6.0",
                      "launch_metadata": {"flops": 2 * 4096 ** 3}, "timing_alone": {"median_ms": 0.15}}
    recs = [record({"BLOCK_M": 128}, 0.30, 0.20), fast_unchanged]
    report = build_report(["python", "p.py"], "propagate-mma", recs)
    (best,) = report["best"]
    assert best["best_before"]["config"]["BLOCK_M"] == 64 and best["best_after"]["config"]["BLOCK_M"] == 64
    assert best["ratio"] == 1.0 and best["unchanged_configs"] == 1 and best["configs"] == 2
    assert "(unchanged by the pipeline)" in run_text(report)


def test_the_report_says_which_sizes_were_not_checked():
    """Without --each-size a kernel is checked at its first launch; launched at other sizes too, the report says
    so, since the pass's decision can change with the size (the main loop's trip count)."""
    recs = [record({"BLOCK_M": 128}, 0.30, 0.20)]
    assert "not checked" not in run_text(build_report(["python", "p.py"], "propagate-mma", recs))
    unchecked = [{"name": "addmm_kernel", "hash": "h1", "sizes": {"M": 4096, "N": 4096, "K": k}} for k in (512, 1024)]
    report = build_report(["python", "p.py"], "propagate-mma", recs, unchecked)
    assert report["unchecked_sizes"] == unchecked
    line = next(x for x in run_text(report).splitlines() if x.startswith("not checked"))
    assert line.startswith("not checked: 2 other problem size(s) of 1 checked kernel(s)")
    assert line.endswith("--each-size checks each")


def test_time_alone_leaves_the_programs_tensors_untouched():
    from irkit.check.capture import time_alone

    x, y = FakeTensor(bytearray([1, 2]), 0, 2), FakeTensor(bytearray([3, 3]), 0, 2)
    out = time_alone(FakeBackend(), add_in_place, [x, y], TimingOptions(min_pairs=5, max_pairs=20))
    assert out["reps"] >= 10 and x.storage == bytearray([1, 2])


def test_run_table_has_a_size_one_name_per_kernel_and_why_unchanged():
    """The same config at two sizes is two rows told apart by the size column; checked and unchanged kernels go
    by the same (launch_metadata) name; an unchanged kernel says why, from the pass's remarks."""
    big = dict(record({"BLOCK_M": 128}, 0.30, 0.20), sizes={"M": 4096, "N": 4096, "K": 4096, "sam": 4096})
    small = dict(record({"BLOCK_M": 128}, 0.03, 0.02), sizes={"M": 3000, "N": 5000, "K": 2000, "sam": 2000})
    kept = {"name": "addmm_kernel", "status": "unchanged", "config": {"BLOCK_M": 64, "num_warps": 4},
            "triton": "3.6.0", "launch_metadata": {"name": "addmm_kernel ADD=True"}, "sizes": {"M": 64, "N": 64, "K": 64},
            "remarks": ["k.ttgir:12:5: remark: propagate-mma: conversion kept: narrows 64 store(s)/thread to v2 "
                        "(model: -1,254 cycles/CTA); profit=auto: compiled with it 110 registers/thread"]}
    report = build_report(["python", "p.py"], "propagate-mma", [big, small, kept])
    text = run_text(report)
    assert "4096x4096x4096" in text and "3000x5000x2000" in text
    line = next(x for x in text.splitlines() if x.startswith("unchanged by the pipeline"))
    assert line.startswith("unchanged by the pipeline (not compared): addmm_kernel ADD=True 64x64x64 64 w4")
    assert line.endswith("why: conversion kept: narrows 64 store(s)/thread to v2 (model: -1,254 cycles/CTA); "
                         "profit=auto: compiled with it 110 registers/thread")
    from irkit.check.render import unchanged_reason

    assert unchanged_reason({"remarks": []}) == "no conversion the pipeline acts on"
    # a long reason keeps both ends: what was done, and the criterion that decided it
    long = ("k.ttgir:3:1: remark: propagate-mma: conversion kept: moves 64 load(s)/thread to b16 " + "x" * 300
            + "; so occupancy and spills decide: neither more CTAs on an SM that held 8 or fewer warps nor spills "
            "512 B fewer")
    said = unchanged_reason({"remarks": [long]})
    assert said == ("conversion kept: moves 64 load(s)/thread to b16 ... so occupancy and spills decide: neither more "
                    "CTAs on an SM that held 8 or fewer warps nor spills 512 B fewer")
    # a rewrite made and undone (round 42's bottleneck, under 7e18c35): the undoing is the reason, not the moves
    moved = ("k.ttgir:206:16: remark: propagate-mma: moved to #nvidia_mma: 1 conversion(s) removed, 0 added; remove: "
             "narrows 32 store(s)/thread to v2 (model: +962 cycles/CTA)")
    undone = ("k.py:70:9: remark: propagate-mma: rewrite undone, the conversion kept: the model's gain (+1,925 "
              "cycles/CTA) does not stand alone where the launch is its epilogue, so the rewrite stands only where "
              "the compiler's figures take it too, and they do not (profit=auto: compiled with it 232 registers)")
    said = unchanged_reason({"remarks": [moved, moved.replace("206:16", "197:21"), undone, undone]})
    assert said.startswith("rewrite undone, the conversion kept: the model's") and "is its epilogue" in said
    assert "moved to" not in said and "more)" not in said
    # cut between words, the last clause whole where it fits
    words = ("k.ttgir:3:1: remark: propagate-mma: conversion kept: " + "word " * 60 + "(figures); the SASS cost "
             "rises by 300 or more")
    said = unchanged_reason({"remarks": [words]})
    assert said.startswith("conversion kept: word word") and said.endswith(" ... the SASS cost rises by 300 or more")
    assert len(said) <= 220 and said.split(" ... ")[0].endswith("word")
    # a last clause too long for the column keeps its end, from a word
    endless = "k.ttgir:3:1: remark: propagate-mma: conversion kept: x; " + " ".join(f"w{i}" for i in range(100))
    said = unchanged_reason({"remarks": [endless]})
    assert said.endswith(" w99") and len(said) <= 220 and " ... w" in said


def test_without_a_terminal_each_kernel_is_one_progress_line(monkeypatch, capsys):
    from irkit.check import hook

    monkeypatch.delenv(hook.ENV_PROGRESS_FD, raising=False)
    progress = hook.Progress()
    progress.count = 3
    progress.done(dict(record({"BLOCK_M": 128}, 0.3, 0.2), sizes={"M": 4096, "N": 4096, "K": 4096}), 6.25)
    assert capsys.readouterr().err == "irkit-check [3] addmm_kernel ADD=True 4096x4096x4096 128 w8 s3: checked in 6.2 s\n"


class _Fn:
    arg_names = ["a_ptr", "M", "N", "K", "BLOCK"]
    constexprs = [4]


class _Src:
    fn = _Fn()


class _Kernel:
    def __init__(self, hash_: str):
        self.hash, self.src = hash_, _Src()
        self.metadata = type("Metadata", (), {"name": f"kernel_{hash_}"})()


def _checker(tmp_path, monkeypatch, each_size: bool):
    """A Checker whose check() only records what it was asked to check (no Triton, no GPU)."""
    from irkit.check.hook import ENV_PROGRESS_FD, Checker

    monkeypatch.delenv(ENV_PROGRESS_FD, raising=False)
    checker = Checker("propagate-mma", str(tmp_path / "records.jsonl"), sys.executable,
                      {"kernel": [], "each_size": each_size, "max_seconds": 1.0})
    checked = []

    def check(kernel, launcher, grid, stream, args):
        checked.append((kernel.hash, tuple(args[1:4])))
        return {"name": "k", "status": "unchanged", "config": {}}

    checker.check = check
    return checker, checked


def _launch(checker, kernel, launched, m, n, k):
    """A launch as Triton's patched CompiledKernel.run makes it: grid, stream, function, metadata, hooks, args."""
    launcher = checker.launcher_for(kernel, lambda *a: launched.append(a[9:]))  # the program's own launch
    return launcher(1, 1, 1, None, None, None, None, None, None, "a", m, n, k, 64)


@pytest.mark.parametrize("each_size", [False, True])
def test_each_size_checks_the_same_code_again_at_every_new_problem(tmp_path, monkeypatch, capsys, each_size):
    checker, checked = _checker(tmp_path, monkeypatch, each_size)
    one, other, launched = _Kernel("h1"), _Kernel("h2"), []
    checker.busy.on = True  # inside a check: the rewritten kernel (it has the original's hash) runs unchecked
    _launch(checker, one, launched, 1024, 1024, 1024)
    checker.busy.on = False
    for m, n, k in [(4096, 4096, 4096), (8192, 8192, 1024), (4096, 4096, 4096), (8192, 8192, 1024)]:
        _launch(checker, one, launched, m, n, k)
    _launch(checker, other, launched, 4096, 4096, 4096)
    records = [json.loads(x) for x in (tmp_path / "records.jsonl").read_text().splitlines()]
    if each_size:
        assert checked == [("h1", (4096, 4096, 4096)), ("h1", (8192, 8192, 1024)), ("h2", (4096, 4096, 4096))]
        assert len(records) == len(checked)
    else:
        assert checked == [("h1", (4096, 4096, 4096)), ("h2", (4096, 4096, 4096))]
        # the size h1 was not checked at is noted once, for the report, though launched twice
        unchecked = [r["unchecked_size"] for r in records if "unchecked_size" in r]
        assert unchecked == [{"name": "kernel_h1", "hash": "h1", "sizes": {"M": 8192, "N": 8192, "K": 1024}}]
        assert len(records) == len(checked) + 1
    assert len(launched) == 6  # every launch still runs, checked or not
    # a kernel --kernel leaves out is not checked, and its other sizes are not noted
    checker.check = lambda *a: None
    skipped = _Kernel("h3")
    for k in (64, 128):
        _launch(checker, skipped, launched, 64, 64, k)
    assert not any("h3" in line for line in (tmp_path / "records.jsonl").read_text().splitlines())


def test_the_same_code_is_rewritten_and_recompiled_once(tmp_path, monkeypatch):
    from irkit.check.hook import Checker

    checker = Checker("propagate-mma", str(tmp_path / "r.jsonl"), sys.executable, {"each_size": True})
    asked, compiled = [], []

    class Rewriter:
        def rewrite(self, ttgir, name, version, scalars, ctas=None, sms=None, timer=None):
            asked.append((name, scalars["K"]) if ctas is None else (name, scalars["K"], ctas, sms))
            return {"changed": True, "text": ttgir + " rewritten"}

    class Rewritten:
        hash = "r1"
        run = None

    def recompile(kernel, ttgir):
        compiled.append(ttgir)
        if kernel.hash == "bad":
            raise RuntimeError("out of resources:\n shared memory")
        return Rewritten()

    checker.rewriter = Rewriter()
    monkeypatch.setattr(checker, "recompile", recompile)
    monkeypatch.setitem(sys.modules, "triton", type(sys)("triton"))
    sys.modules["triton"].__version__ = "3.6.0"
    for k in (4096, 4096, 16):
        answer = checker.rewrite_once(_Kernel("h1"), "k", "ttgir", {"M": 64, "K": k})
        assert isinstance(checker.recompile_once(_Kernel("h1"), "k", answer["text"]), Rewritten)
        assert checker.recompile_once(_Kernel("bad"), "k", "x") == "RuntimeError: out of resources: shared memory"
    # asked again at other sizes (how many times the main loop runs can change the answer); the same rewritten
    # TTGIR is compiled once
    assert asked == [("k.ttgir", 4096), ("k.ttgir", 16)] and compiled == ["ttgir rewritten", "x"]
    # and at other grids (how many waves its CTAs take can change it too), on the device's SMs
    for ctas in (512, 512, 594):
        checker.rewrite_once(_Kernel("h1"), "k", "ttgir", {"M": 64, "K": 16}, ctas, 132)
    assert asked[2:] == [("k.ttgir", 16, 512, 132), ("k.ttgir", 16, 594, 132)]
