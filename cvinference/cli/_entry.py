"""The ``cvinference`` program (the console script and ``python -m cvinference``).

Ctrl-C sends SIGINT to the whole process group: the program and its joblib
workers. At any moment once this module runs, the program then exits with
status 130 and the one line ``cvinference: interrupted``, and no worker
prints anything or stays behind:

- SIGINT is blocked first, before anything heavy is imported, in this thread
  and so in every thread and process started later: the workers never see it
  (the parent decides) and print no traceback. One thread takes it with
  ``sigwait`` and has the main thread raise ``KeyboardInterrupt``, where the
  command stops (joblib stops its pool) and tells it; what may still run of
  the workers is then killed.
- While the main thread runs loky's code or moves the outputs into place,
  the interrupt waits until it is done (``_on_sigint``).
- Once the command has finished, Ctrl-C is ignored: the program is only
  exiting, its output whole (Python would otherwise die of it in its own
  shutdown, with status -2 and no message).
- A second Ctrl-C while the command is stopping ends the program at once.

What precedes this module, the interpreter's own start (``site`` and the
package's light ``__init__`` modules, some tens of milliseconds), is Python's:
an interrupt there ends the program as Python does. The workers' end when the
program dies without stopping them (SIGKILL) is ``_workers.py``'s.
"""

import _thread
import os
import signal
import sys
import threading
import time

_lock = threading.RLock()
_phase = ["running"]  # "running", then "stopping" (interrupted) or "finished"
_retry = threading.Event()  # an interrupt waits for the main thread to leave loky
_deferred_since = []
_POLL_SECONDS = 0.05
_DEFER_SECONDS = 2.0
_LOKY = f"{os.sep}loky{os.sep}"


def run():
    """Run the command of ``sys.argv`` and exit with its status."""
    if hasattr(signal, "sigtimedwait") and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        sys.exit(_run_command())
    # No POSIX signal masks to wait on (Windows, macOS), or SIGINT ignored by whoever started the program.
    from ._main import main

    sys.exit(main())


def _take_sigint():
    """Block SIGINT here and in all that starts later; a thread of its own takes it."""
    signal.signal(signal.SIGINT, _on_sigint)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    threading.Thread(target=_relay_sigint, name="cvinference-sigint", daemon=True).start()


def _relay_sigint():
    """Take SIGINT and have the main thread handle it (``_on_sigint``); a second one ends the program here."""
    while True:
        taken = signal.sigtimedwait({signal.SIGINT}, _POLL_SECONDS) is not None
        with _lock:
            phase = _phase[0]
            if phase == "running" and (taken or _retry.is_set()):
                _retry.clear()
                _thread.interrupt_main()
        if phase == "stopping" and taken:
            _stop_now()


def _on_sigint(signum, frame):
    """SIGINT's handler in the main thread: the first stops the command, a second ends the program at once.

    While the main thread runs loky's code (starting a worker, its manager
    thread) or moves the outputs into place, the interrupt waits for it to
    be done, up to two seconds: loky does not expect an exception there (a
    worker given half its start-up data prints a traceback, a manager thread
    made but not started makes its shutdown fail), and the outputs are
    written all or none.
    """
    with _lock:
        phase = _phase[0]
        if phase == "running" and _not_now(frame) and not _deferred_too_long():
            _retry.set()
            return
        if phase == "running":
            _phase[0] = "stopping"
    if phase == "running":
        raise KeyboardInterrupt
    if phase == "stopping":
        _stop_now()


def _not_now(frame):
    """Whether ``frame`` or a caller runs loky's code or moves the outputs into place."""
    outputs = sys.modules.get(f"{__package__}._outputs")
    moving = outputs.move_into_place.__code__ if outputs is not None else None
    while frame is not None:
        if frame.f_code is moving or _LOKY in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


def _deferred_too_long():
    if not _deferred_since:
        _deferred_since.append(time.monotonic())
    return time.monotonic() - _deferred_since[0] > _DEFER_SECONDS


def _run_command():
    try:
        _take_sigint()
        from ._main import main

        try:
            status = main()
        except SystemExit as exc:  # argparse's, after --help
            status = exc.code
        with _lock:
            interrupted = _phase[0] == "stopping"
            if not interrupted:
                _phase[0] = "finished"
        if interrupted:  # let an interrupt requested as main returned arrive here, not in Python's shutdown
            for _ in range(100):
                time.sleep(0.001)
    except KeyboardInterrupt:  # as the thread starts, during the imports, or as main returned
        from ._errors import tell_interrupted

        status = tell_interrupted()
    if _phase[0] == "stopping":
        from ._workers import kill_workers

        kill_workers()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # kept through Python's shutdown, where a handler is not
    return status


def _stop_now():
    """A second Ctrl-C: kill the workers and exit 130 without waiting for the command's cleanup."""
    from ._errors import told_interrupted
    from ._workers import kill_workers

    if not told_interrupted():
        os.write(2, b"cvinference: interrupted\n")
    kill_workers()
    os._exit(130)
