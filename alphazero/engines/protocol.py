"""What the engines that talk on standard input and output (GTP, USI) share: their streams and the loop that answers each line."""
import io
import os
import sys


def protocol_streams():
    """For an engine that talks on standard input and output (GTP, USI): (the lines it reads, the
    file it answers on). Only the protocol goes to standard output: fd 1 is sent to stderr, so that
    nothing a library prints can reach the GUI. Lines end at LF only (a CR is not a line break), and
    bytes that are not UTF-8 become replacement characters for the protocol to refuse."""
    answers = os.fdopen(os.dup(1), 'w')
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return io.TextIOWrapper(sys.stdin.buffer, errors='replace', newline='\n'), answers


def serve(lines, output, reply, finished):
    """Write reply(line) (text, or None for nothing) on `output` for every line of `lines`, until
    finished() says so, the input ends, or the reader closes the output (then the rest is dropped
    quietly)."""
    for line in lines:
        answer = reply(line)
        if answer is None:
            continue
        try:
            output.write(answer)
            output.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), output.fileno())  # nothing more to flush at exit
            return
        if finished():
            break
