"""How fast the command line starts and the package imports (issue 31, item 4).

Each command runs in a fresh interpreter, interleaved with the others, and the median wall time of ``--runs``
rounds is reported, with its ratio to ``python -c pass`` (the interpreter's own start) and, for the package, to
``import sklearn.model_selection``. Targets: every ``--help`` under 0.3 s; ``import cvinference`` no slower
than ``import sklearn.model_selection``. The console script is run from the interpreter's own ``bin``
directory (a version manager's shim, such as pyenv's, adds its own start to every call).
"""

import argparse
import os
import subprocess
import sys

from run import interleaved

HELP_TARGET_SECONDS = 0.3


def _script():
    """The installed ``cvinference`` console script next to this interpreter, or ``python -m cvinference``."""
    path = os.path.join(os.path.dirname(sys.executable), "cvinference")
    return [path] if os.path.exists(path) else [sys.executable, "-m", "cvinference"]


def _command(argv):
    def run():
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return run


def candidates():
    script = _script()
    found = {"python -c pass": [sys.executable, "-c", "pass"],
             "import sklearn.model_selection": [sys.executable, "-c", "import sklearn.model_selection"],
             "import cvinference": [sys.executable, "-c", "import cvinference"]}
    for argv in (["--help"], *([command, "--help"] for command in ("evaluate", "compare", "select", "study",
                                                                    "demo"))):
        found["cvinference " + " ".join(argv)] = [*script, *argv]
    return {name: _command(argv) for name, argv in found.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    times = interleaved(candidates(), args.runs)
    base, sklearn = times["python -c pass"], times["import sklearn.model_selection"]
    print(f"median of {len(times.rounds['python -c pass'])} interleaved runs, fresh interpreters\n")
    print("| command | seconds | vs python -c pass | target |\n|---|---|---|---|")
    for name, seconds in times.items():
        if name.startswith("cvinference"):
            target = f"< {HELP_TARGET_SECONDS} s: {'yes' if seconds < HELP_TARGET_SECONDS else 'NO'}"
        elif name == "import cvinference":
            target = (f"<= import sklearn.model_selection ({seconds / sklearn:.2f}x): "
                      f"{'yes' if seconds <= sklearn else 'NO'}")
        else:
            target = ""
        print(f"| `{name}` | {seconds:.3f} | {seconds / base:.2f} | {target} |")


if __name__ == "__main__":
    main()
