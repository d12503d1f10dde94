"""Write every case of ``tests/result_cases.py`` as its ``to_dict()`` to ``result_payloads_v<N>.json``.

Run from the repository root: ``python tests/data/write_result_payloads.py N COMMIT``. The file
records the commit whose code wrote it; ``tests/test_codec.py`` reads every stored file and checks
that today's ``from_dict`` rebuilds each payload and writes it again as today's ``to_dict()`` of the
same case. A stored file is never rewritten: a new format version gets a new file.
"""

import importlib
import json
import pathlib
import sys


def main(version, commit):
    path = pathlib.Path(__file__).with_name(f"result_payloads_v{version}.json")
    if path.exists():
        raise SystemExit(f"{path} exists; stored payloads are never rewritten.")
    root = pathlib.Path(__file__).parents[2]
    sys.path[:0] = [str(root), str(root / "tests")]  # this checkout's cvinference, not an installed one
    cases = importlib.import_module("result_cases").result_cases()
    payloads = {label: result.to_dict() for label, result in cases}
    document = {"written_by_commit": commit, "cases": payloads}
    path.write_text(json.dumps(document, allow_nan=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
