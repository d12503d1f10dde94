"""Write a docs example's output block again from what the example prints now, keeping its "..." elisions.

    python tests/rerecord_docs.py getting-started.md:48 [cli.md:361 ...]

Each argument is the id ``tests/test_docs.py`` gives an example (page and line of its ```python block). Its
```text block becomes the example's output, with every "..." line of the old block kept where the lines on both
sides of it are still printed: a segment between two elisions keeps its first and last line as anchors and takes
every line the example prints between them now. A line whose anchor is not printed any more ends the elisions
around it, so nothing is hidden that the old block did not hide. Check the diff before committing: the tool
records what the code prints, it does not judge it.
"""

import contextlib
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_docs import _BLOCK, DOCS, _examples, _run_as_script, _run_in_process


def _matches(pattern_line, line):
    """Whether ``line`` is what ``pattern_line`` (a line of an output block, "..." inside it any characters) shows."""
    pieces = pattern_line.rstrip().split("...")
    if len(pieces) == 1:
        return line.rstrip() == pattern_line.rstrip()
    position = 0
    for index, piece in enumerate(pieces):
        found = line.find(piece, position) if index else (0 if line.startswith(piece) else -1)
        if found < 0:
            return False
        position = found + len(piece)
    return pieces[-1] == "" or line.rstrip().endswith(pieces[-1])


def _find(pattern_line, lines, start):
    return next((i for i in range(start, len(lines)) if _matches(pattern_line, lines[i])), None)


def rerecord(expected, output):
    """The new output block: ``output``'s lines, elided where ``expected`` elided and its anchors are printed."""
    old, lines = expected.rstrip("\n").split("\n"), output.rstrip("\n").split("\n")
    segments = [[]]
    for line in old:
        if line.strip() == "...":
            segments.append([])
        else:
            segments[-1].append(line)
    new, position = [], 0
    for number, segment in enumerate(segments):
        last = number == len(segments) - 1
        if number and not segment:
            new.append("...")
            if last:
                return "\n".join(new) + "\n"
            continue
        begin = position
        if number:
            found = _find(segment[0], lines, position)
            if found is not None:
                new.append("...")
                begin = found
        if last:
            end = len(lines)
        else:
            found = _find(segment[-1], lines, begin)
            following = next((s for s in segments[number + 1:] if s), None)
            end = found + 1 if found is not None else (
                _find(following[0], lines, begin) if following else None) or len(lines)
        new += _with_inline_elisions(segment, lines[begin:end])
        position = end
    return "\n".join(new) + "\n"


def _with_inline_elisions(segment, printed):
    """``printed``, each line that an old line with "..." inside it still shows kept as that old line."""
    kept, index = [], 0
    for line in printed:
        if index < len(segment) and _matches(segment[index], line):
            kept.append(segment[index])
            index += 1
        else:
            kept.append(line)
    return kept


def main(ids):
    examples = {param.id: param.values for param in _examples()}
    for example_id in ids:
        code, expected = examples[example_id]
        with tempfile.TemporaryDirectory() as directory, contextlib.chdir(directory):
            output = _run_as_script(code, Path(directory)) if "__main__" in code else _run_in_process(code)
        page = DOCS / example_id.split(":")[0]
        text = page.read_text()
        line = int(example_id.split(":")[1])
        blocks = list(_BLOCK.finditer(text))
        index = next(i for i, block in enumerate(blocks) if text[:block.start()].count("\n") + 1 == line)
        target = blocks[index + 1]
        body_start = target.start(2)
        text = text[:body_start] + rerecord(expected, output) + text[target.end(2):]
        page.write_text(text)
        print(f"{example_id}: written", file=sys.stderr)


if __name__ == "__main__":
    os.environ.setdefault("MPLBACKEND", "Agg")
    main(sys.argv[1:])
