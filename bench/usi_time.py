"""What a move searches at each time control: our USI engine as a GUI drives it.

Sends the engine positions of the kept engine games (records/shogi9/*.csa.xz, plies 20 to 100) and,
for each time control, `go ...` as a GUI would, each control on positions of its own (the engine's
cache of evaluations would make a position seen before faster); prints for each the median and the
most seconds a move took (from go to bestmove, as the GUI's clock counts) and the median simulations
(info nodes).
Run: .venv/bin/python bench/usi_time.py [--positions 10] [--engine ".venv/bin/python usi_engine.py"]
"""
import glob
import os
import shlex
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

from alphazero.cli.run import ArgumentParser, run  # noqa: E402
from alphazero.game.registry import load_game  # noqa: E402
from alphazero.records.read import read_records  # noqa: E402

# A GUI's go for each time control (milliseconds), as in a game where both clocks have plenty left
TIME_CONTROLS = {
    'byoyomi 1 s': 'go btime 0 wtime 0 byoyomi 1000',
    'byoyomi 3 s': 'go btime 0 wtime 0 byoyomi 3000',
    'Fischer 60 s + 2 s': 'go btime 60000 wtime 60000 binc 2000 winc 2000',
    'sudden death, 60 s left': 'go btime 60000 wtime 60000',
    'movetime 500 ms': 'go movetime 500',
}


def positions(game, count):
    """USI positions of the kept engine games, one from each game, plies 20 to 100."""
    found = []
    for path in sorted(glob.glob(os.path.join('records', 'shogi9', '*.csa.xz'))):
        games, _ = read_records(path, game)
        for index, actions in enumerate(games):
            state = game.State()
            for action in actions[:20 + (index * 7) % 80]:
                state = state.next(action)
            found.append(state.usi_position())
            if len(found) == count:
                return found
    return found


def main():
    parser = ArgumentParser(description='Time the moves of our USI engine at each time control.')
    parser.add_argument('--positions', type=int, default=10)
    parser.add_argument('--engine', default=f'{sys.executable} usi_engine.py')
    args = parser.parse_args()
    engine = subprocess.Popen(shlex.split(args.engine), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + '\n')
        engine.stdin.flush()

    def until(word):
        lines = []
        while not (line := engine.stdout.readline()).startswith(word):
            lines.append(line)
        return lines, line
    send('usi')
    until('usiok')
    send('isready')
    until('readyok')
    send('position startpos')  # the first search starts the network's runtime: not timed
    send('go nodes 10')
    until('bestmove')
    game = load_game('shogi9')
    tried = positions(game, args.positions * len(TIME_CONTROLS))
    print(f'{args.positions} positions of the kept engine games for each; seconds from go to bestmove, '
          'simulations a move')
    for number, (name, go) in enumerate(TIME_CONTROLS.items()):
        seconds, nodes = [], []
        for position in tried[number::len(TIME_CONTROLS)]:
            send(f'position {position}')
            start = time.monotonic()
            send(go)
            infos, _ = until('bestmove')
            seconds.append(time.monotonic() - start)
            last = [line for line in infos if line.startswith('info') and ' nodes ' in line][-1]
            nodes.append(int(last.split(' nodes ')[1].split()[0]))
        print(f'{name:26} median {statistics.median(seconds):.2f} s, at most {max(seconds):.2f} s; '
              f'median {statistics.median(nodes):.0f} simulations')
    send('quit')
    engine.wait()


if __name__ == '__main__':
    run(main)
