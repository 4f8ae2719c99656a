"""A long computation that holds the GIL (cshogi's df-pn), run in a process of its own so that the
engine still hears its GUI: isready is answered, and stop and quit end it at once."""
import multiprocessing
import time

POLL_SECONDS = 0.02  # how often the waiting engine looks at its stop


def _send_result(task, sender):
    sender.send(task())
    sender.close()


def run_apart(task, stop, seconds=None):
    """task() computed in a forked child (it sees this process's memory as it is; its result must
    pickle), or None when `stop` (a threading.Event) is set first, `seconds` pass, or the child ends
    without a result: the child is killed then."""
    receiver, sender = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context('fork').Process(target=_send_result, args=(task, sender), daemon=True)
    deadline = None if seconds is None else time.monotonic() + seconds
    child.start()
    sender.close()
    try:
        while not receiver.poll(POLL_SECONDS):
            late = deadline is not None and time.monotonic() >= deadline
            if stop.is_set() or late or not child.is_alive() and not receiver.poll():
                return None
        return receiver.recv()
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()
