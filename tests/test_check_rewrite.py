"""irkit-check's rewriter (irkit/check/rewrite.py): the launch's scalar arguments reach the passes as how many times
the main loop runs, and a module is rewritten once per trip count."""

import io
import json
from pathlib import Path

from irkit.check import rewrite

LORA = Path(__file__).resolve().parents[1] / "lit_tests" / "passes" / "Inputs" / "h100-lora-up-masked-128x128x16-w4s2.ttgir"


def test_launch_trips_from_the_scalar_arguments():
    text = LORA.read_text()
    assert rewrite.launch_trips(text, "k.ttgir", {"M": 3000, "N": 5000, "K": 16}) == 1
    assert rewrite.launch_trips(text, "k.ttgir", {"M": 3000, "N": 5000, "K": 4096}) == 256
    assert rewrite.launch_trips(text, "k.ttgir", {}) is None
    assert rewrite.launch_trips("module {", "k.ttgir", {"K": 16}) is None  # the rewrite reports the error


def test_the_trip_count_reaches_the_pass_and_each_is_asked_once(monkeypatch):
    from irkit.passes import all_passes

    pass_class = all_passes()["propagate-mma"]
    given = []
    real_apply = pass_class.apply

    def apply(self, ctx, op):
        given.append(self.main_loop_trips)
        return real_apply(self, ctx, op)

    monkeypatch.setattr(pass_class, "apply", apply)
    requests = [{"ttgir": LORA.read_text(), "name": "k.ttgir", "version": "3.6.0", "scalars": {"M": m, "K": k}}
                for m, k in ((3000, 16), (8192, 16), (3000, 4096))]
    out = io.StringIO()
    rewrite.serve("propagate-mma{profit=model}", io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 3 and answers[0] == answers[1]
    assert all(a["error"] is None and not a["changed"] for a in answers)  # the model keeps both conversions
    # the second launch runs the loop as often as the first: answered without a second run
    assert given == [1, 256]


def test_the_launch_grid_reaches_the_pass_and_each_is_asked_once(monkeypatch):
    """The launch's CTAs and its device's SMs ("ctas", "sms") reach propagate-mma as `launch_ctas` and `device_sms`,
    and a module is rewritten once per launch: the same trips, CTAs and SMs get the same answer."""
    from irkit.passes import all_passes

    pass_class = all_passes()["propagate-mma"]
    given = []
    real_apply = pass_class.apply

    def apply(self, ctx, op):
        given.append((self.main_loop_trips, self.launch_ctas, self.device_sms, self.launch_grid))
        return real_apply(self, ctx, op)

    monkeypatch.setattr(pass_class, "apply", apply)
    requests = [{"ttgir": LORA.read_text(), "name": "k.ttgir", "version": "3.6.0", "scalars": {"M": 3000, "K": 16},
                 "ctas": ctas, "sms": 132} for ctas in (512, 512, 594)]
    requests.append({"ttgir": LORA.read_text(), "name": "k.ttgir", "version": "3.6.0", "scalars": {"M": 3000, "K": 16}})
    out = io.StringIO()
    rewrite.serve("propagate-mma{profit=model}", io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), out)
    assert len(out.getvalue().splitlines()) == 4
    from irkit.analysis.occupancy import LaunchGrid

    assert given == [(1, 512, 132, LaunchGrid(512, 132)), (1, 594, 132, LaunchGrid(594, 132)), (1, None, None, None)]
