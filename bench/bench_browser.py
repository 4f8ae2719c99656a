"""Network speed in the browser, beside the same network in Python, in one run.

For each .onnx file: positions per second on onnxruntime-web in headless Chromium (WebAssembly, one
thread, as the page plays) and on onnxruntime in Python with one thread, one position per call (as
the page's search calls the network) and in batches of 16. The ratio browser / Python says how much
slower a model plays on the page than in human_play.py at the same simulations. With --moves N, the
page then plays N moves at each level that searches (bench/page_moves.mjs) and prints the median and
the longest seconds the AI took for a move there, as a player waits for it.

Run: .venv/bin/python bench/bench_browser.py --game othello8 runs/othello8/model/best.onnx [more.onnx ...]
     [--moves 5]
Needs Chromium (/usr/bin/chromium or $CHROMIUM) and the npm packages (bash setup.sh).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import statistics
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from alphazero.game.registry import GAMES, load_game  # noqa: E402
from alphazero.network.runtimes import OnnxNetwork, evaluation_rate  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BATCHES = (1, 16)
SECONDS = 3.0   # timing per batch size


# Positions per second in Chromium (browser_speed.mjs), or with `moves` the seconds of the AI's moves
# at each level that searches (page_moves.mjs): play_web.py serves the model
def browser_speed(path, game, moves=0):
    with tempfile.TemporaryDirectory() as workdir:
        server = subprocess.Popen([sys.executable, os.path.join(REPO, 'play_web.py'), '--game', game.NAME,
                                   '--model', os.path.abspath(path), '--port', '0'],
                                  cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()
            address = re.search(r'http://127\.0\.0\.1:\d+/', line)
            if not address:
                sys.exit(f'play_web.py did not start: {server.stderr.read().strip()}')
            if moves:
                levels = [level['number'] for level in json.loads(
                    urllib.request.urlopen(address.group(0) + 'config.json').read())['games'][game.NAME]['levels']
                          if level['simulations']]
                command = ['page_moves.mjs', f'{address.group(0)}#{game.NAME}', ','.join(map(str, levels)), str(moves)]
            else:
                command = ['browser_speed.mjs', address.group(0), *map(str, BATCHES)]
            result = subprocess.run([shutil.which('node') or 'node', os.path.join(REPO, 'bench', command[0]), *command[1:]],
                                    cwd=REPO, capture_output=True, text=True, timeout=3600)
            if result.returncode:
                sys.exit(f'the browser run failed: {result.stderr.strip()[-500:]}')
            if moves:
                return json.loads(result.stdout)
            return {int(batch): speed for batch, speed in json.loads(result.stdout).items()}
        finally:
            server.terminate()
            server.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description='onnxruntime-web in Chromium against onnxruntime in Python.')
    parser.add_argument('--game', choices=sorted(GAMES), default='tictactoe')
    parser.add_argument('models', nargs='+', help='.onnx files of this game')
    parser.add_argument('--moves', type=int, default=0, help="then the AI's moves a level the page times (0: none)")
    args = parser.parse_args()
    game = load_game(args.game)
    chromium = subprocess.run([os.environ.get('CHROMIUM', '/usr/bin/chromium'), '--version'], capture_output=True, text=True)
    print(f'{game.NAME}: positions/s, one thread; {chromium.stdout.strip()}')
    print(f'{"model":40} {"size":>8} ' + ' '.join(f'{f"browser b{b}":>11} {f"python b{b}":>10} {"ratio":>6}' for b in BATCHES))
    for path in args.models:
        web = browser_speed(path, game)
        network = OnnxNetwork(path, threads=1)
        cells = []
        for batch in BATCHES:
            planes = np.random.default_rng(0).random((batch, *game.INPUT_SHAPE), dtype=np.float32)
            local = evaluation_rate(network, planes, SECONDS)
            cells.append(f'{web[batch]:11,.0f} {local:10,.0f} {web[batch] / local:6.2f}')
        print(f'{os.path.relpath(path)[-40:]:40} {os.path.getsize(path) / 1e6:6.2f}MB ' + ' '.join(cells))
        if args.moves:
            for level, seconds in browser_speed(path, game, args.moves).items():
                print(f'  level {level}: the AI took a median of {statistics.median(seconds):.2f} s a move on the page, '
                      f'at most {max(seconds):.2f} s ({len(seconds)} moves)')


if __name__ == '__main__':
    main()
