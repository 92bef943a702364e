"""The reference side of a port: run the C++ pass a prototype mirrors (in a real Triton, or a user-built
triton-opt) with irkit-opt's interface (`irkit-ref`), and compare the two (`irkit-sweep --against`).

    passes.py   irkit pass + options -> the C++ pass name (and the Triton version the options ask for)
    runner.py   where the C++ pass runs: a Triton Python (driver.py, in that Python), a triton-opt, a command
    bridge.py   the module on its way there and back: spelling, location tags, value names restored
    compare.py  two printed modules compared as a compiler engineer would; first difference, unified diff
    cli.py      irkit-ref
"""
