"""The command line's worker processes end with it, however it ends.

joblib's loky workers outlive a parent that dies without shutting them down
(SIGKILL, a crash, ``os._exit``): on POSIX they do not watch their parent and
wait for the next task until their idle timeout, 300 seconds, holding the
dead parent's standard output and error open, and a worker in the middle of
a fit first finishes it. A command therefore starts its loky workers with an
initializer that ends a worker as soon as its parent is gone, and the
program kills what remains of its workers after Ctrl-C.

The program blocks SIGINT in its threads, and so in the workers it starts,
which then never see a Ctrl-C (``_entry.py``). loky starts multiprocessing's
resource tracker with its first worker, and CPython before 3.14 unblocks
SIGINT and SIGTERM in the calling thread after starting it, whatever the mask
was (``multiprocessing.resource_tracker.ResourceTracker.ensure_running``):
the tracker is therefore started before the workers, and the mask put back.

Only the workers of joblib's default backend, loky, are configured: a
backend the caller chose (threads, a Dask cluster) is left as it is.
"""

import contextlib
import multiprocessing
import os
import signal
import threading
import time

PARENT_POLL_SECONDS = 0.5


def end_with_parent(parent):
    """A worker's initializer: end this process when ``parent`` (a process id) is no longer its parent.

    A thread of the worker polls ``os.getppid()``, which changes when the
    parent dies (the worker is then adopted by another process). Polling
    needs nothing from the parent and works while the worker is fitting: the
    fit releases the GIL to the thread at least every few milliseconds.

    Examples
    --------
    >>> import os
    >>> end_with_parent(os.getppid())  # this process's parent is alive: nothing happens
    """

    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="cvinference-parent-watch", daemon=True).start()


@contextlib.contextmanager
def workers_end_with_this_process(n_jobs=None):
    """Within it, loky workers that joblib starts for ``n_jobs`` end as soon as this process dies.

    Nothing changes under another backend, chosen with
    :func:`joblib.parallel_config`, or when ``n_jobs`` means one process.

    Examples
    --------
    >>> from joblib import Parallel, delayed
    >>> with workers_end_with_this_process(n_jobs=2):
    ...     Parallel(n_jobs=2)(delayed(abs)(x) for x in (-1, -2))
    [1, 2]
    """
    from joblib import effective_n_jobs, parallel_config

    from .._utils._joblib_compat import backend_name

    if backend_name() != "LokyBackend" or effective_n_jobs(n_jobs) == 1:
        yield
        return
    _start_resource_tracker()
    with parallel_config(backend="loky", initializer=end_with_parent, initargs=(os.getpid(),)):
        yield


def _start_resource_tracker():
    """Start multiprocessing's resource tracker now, keeping this thread's signal mask (see above)."""
    from multiprocessing import resource_tracker

    if not hasattr(signal, "pthread_sigmask"):
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        resource_tracker.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def kill_workers():
    """Kill this process's worker processes that are still alive, and wait for them (at most a few seconds)."""
    children = multiprocessing.active_children()
    for child in children:
        with contextlib.suppress(OSError):
            child.kill()
    for child in children:
        child.join(timeout=5)
