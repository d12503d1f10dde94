"""The ``cvinference`` program (the console script and ``python -m cvinference``).

Ctrl-C sends SIGINT to the whole process group: the program and its joblib
workers. At any moment once this module runs, the program then exits with
status 130 and the one line ``cvinference: interrupted``, and no worker
prints anything or stays behind:

- SIGINT is blocked first, before anything heavy is imported, in this thread
  and so in every thread and process started later: the workers never see it
  (the parent decides) and print no traceback. One thread takes it with
  ``sigwait`` and raises ``KeyboardInterrupt`` in the main thread, where the
  command stops (joblib stops its pool) and tells it; what may still run of
  the workers is then killed.
- Once the command has finished, Ctrl-C is ignored: the program is only
  exiting, its output whole (Python would otherwise die of it in its own
  shutdown, with status -2 and no message).
- A second Ctrl-C while the command is stopping ends the program at once.

What precedes this module, the interpreter's own start (``site`` and the
package's light ``__init__`` modules, some tens of milliseconds), is Python's:
an interrupt there ends the program as Python does.
"""

import _thread
import os
import signal
import sys
import threading
import time

_lock = threading.RLock()
_phase = ["running"]  # "running", then "stopping" (interrupted) or "finished"


def run():
    """Run the command of ``sys.argv`` and exit with its status."""
    if _take_sigint():
        sys.exit(_run_command())
    from ._main import main  # SIGINT is ignored, or not Python's (Windows): nothing to take in hand

    sys.exit(main())


def _take_sigint():
    """Block SIGINT here and in all that starts later; a thread of its own takes it. False where it cannot."""
    if not hasattr(signal, "pthread_sigmask") or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False  # no POSIX signal masks, or SIGINT ignored by whoever started the program: leave it so
    signal.signal(signal.SIGINT, _on_sigint)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    threading.Thread(target=_relay_sigint, name="cvinference-sigint", daemon=True).start()
    return True


def _relay_sigint():
    while True:
        signal.sigwait({signal.SIGINT})
        with _lock:
            stopping = _phase[0] == "stopping"
            if not stopping:
                _thread.interrupt_main()  # calls _on_sigint in the main thread
        if stopping:
            _stop_now()


def _on_sigint(signum, frame):
    """SIGINT's handler in the main thread: the first stops the command, a second ends the program at once."""
    with _lock:
        phase = _phase[0]
        if phase == "running":
            _phase[0] = "stopping"
    if phase == "running":
        raise KeyboardInterrupt
    if phase == "stopping":
        _stop_now()


def _run_command():
    try:
        from ._main import main

        status = main()
        with _lock:
            interrupted = _phase[0] == "stopping"
            if not interrupted:
                _phase[0] = "finished"
        if interrupted:  # let an interrupt requested as main returned arrive here, not in Python's shutdown
            for _ in range(100):
                time.sleep(0.001)
    except KeyboardInterrupt:  # during the imports, or as main returned
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
