"""`python -m irkit ...` is `irkit-opt ...` (as `python -m` runs a tool without its script on PATH)."""

from irkit.cli.opt import main

if __name__ == "__main__":
    main()
