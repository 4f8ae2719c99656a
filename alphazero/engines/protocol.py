"""What the engines that talk on standard input and output (GTP, USI) share: their streams and the loop that answers each line."""
import io
import os
import queue
import sys
import threading


def protocol_streams():
    """For an engine that talks on standard input and output (GTP, USI): (the lines it reads, the
    file it answers on). Only the protocol goes to standard output: fd 1 is sent to stderr, so that
    nothing a library prints can reach the GUI. Lines end at LF only (a CR is not a line break), and
    bytes that are not UTF-8 become replacement characters for the protocol to refuse."""
    answers = os.fdopen(os.dup(1), 'w')
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return io.TextIOWrapper(sys.stdin.buffer, errors='replace', newline='\n'), answers


def serve(lines, output, reply, finished, interrupt=None, at_once=None, stream_to=None):
    """Write reply(line) (text, or None for nothing) on `output` for every line of `lines`, until
    finished() says so, the input ends, or the reader closes the output (then the rest is dropped
    quietly).

    A search may take long, and a GUI must still be heard meanwhile: the lines are answered in order
    on a thread of their own while this one goes on reading. `interrupt(line)` hears each line as it
    arrives, before the ones ahead of it are answered: it may stop the search under way (USI's stop
    and quit, GTP's quit), and returns True for a line that ends the conversation. `at_once(line)`
    may answer a line out of turn (USI's isready during a search): its text, or None. `stream_to(write)`
    receives the writer, for text written while a reply is being made (USI's info lines of a search)."""
    pending, closed, writing = queue.Queue(), threading.Event(), threading.Lock()

    def write(text):
        with writing:
            if closed.is_set():
                return
            try:
                output.write(text)
                output.flush()
            except BrokenPipeError:
                closed.set()
                os.dup2(os.open(os.devnull, os.O_WRONLY), output.fileno())  # nothing more to flush at exit

    def answer():
        while (line := pending.get()) is not None:
            text = reply(line)
            if text:
                write(text)
            if finished():
                closed.set()
                return

    if stream_to:
        stream_to(write)
    worker = threading.Thread(target=answer, daemon=True)
    worker.start()
    for line in lines:
        if closed.is_set():
            break
        ending = bool(interrupt and interrupt(line))
        text = at_once(line) if at_once else None
        if text:
            write(text)
        else:
            pending.put(line)
        if ending:
            break
    pending.put(None)
    worker.join()
