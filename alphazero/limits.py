"""What a flag may be: argparse types that refuse values no run can use, and memory estimates
checked before a run starts, so that a typo ends in one line instead of a traceback hours later.

A type refuses text that is not a number, NaN and infinity, and values outside its range; the
scripts' parser (cli.ArgumentParser) then prints one line, `error: argument --sims: ...`, and exits
with code 2. The ranges are wide
(what a CPU or a GPU could still run); sizes that fit the range but not this machine's memory are
caught by the estimates below, which name the estimate and the flag to lower.
"""
import argparse
import math
import os
import random
import shlex
import shutil

from alphazero.errors import UserError

# The largest values any run could use (memory is checked separately, against this machine)
MAX_SIMS = 1_000_000       # simulations per move


MAX_GAMES = 10_000_000     # games of one stage


MAX_PARALLEL = 100_000     # games played at once


MAX_WORKERS = 4096         # Ray workers


MAX_ENGINES = 1024         # engine processes at once (one per game against an engine)


MAX_COUNT = 1_000_000      # cycles, epochs, windows and other counts


MAX_SAMPLES = 10 ** 10     # training samples


MAX_BATCH = 65536          # samples per gradient step


MAX_WIDTH = 8192           # filters, token width, heads


MAX_DEPTH = 1000           # residual blocks, encoder layers


MAX_CONSIDERED = 4096      # moves a Gumbel root search considers


SEED_LIMIT = 2 ** 32       # seeds are 0 to 2**32 - 1, as NumPy and TensorFlow take them


MEMORY_SHARE = 0.8         # a run may plan on this share of the memory available when it starts


# ----- argparse types -----
def whole_number(low=0, high=MAX_COUNT):
    """An argparse type: an integer from `low` to `high`."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f'{text!r} is not a whole number') from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f'{value} is out of range: give {low} to {high:,}')
        return value
    return parse


def real_number(low=0.0, high=1e6):
    """An argparse type: a finite number from `low` to `high`."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f'{text!r} is not a number') from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f'{text} is out of range: give a number {low} or more, at most {high:g}')
        return value
    return parse


seed = whole_number(0, SEED_LIMIT - 1)


def file_path(text):
    """An argparse type: a path a file could have (not empty, no NUL character)."""
    if not text or '\0' in text:
        raise argparse.ArgumentTypeError(f'{text!r} is not a file path')
    return text


def engine_command(text):
    """An argparse type: a command line whose program exists and can be run (checked before the
    first game, not after a cycle of self-play)."""
    try:
        words = shlex.split(text.split(';')[0])  # a USI engine's commands may follow a semicolon (alphazero/engines/usi.py)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f'{text!r} is not a command line ({error})') from None
    if not words:
        raise argparse.ArgumentTypeError('the engine command is empty: give its command line, '
                                         'for example "/usr/games/gtp-rhino -l 1"')
    program = shutil.which(words[0])
    if program is None:
        where = 'is not an executable file' if os.sep in words[0] else 'is not found on the PATH'
        raise argparse.ArgumentTypeError(f'{words[0]!r} {where}: give the engine\'s full command line')
    return text


# ----- memory -----
def available_memory():
    """Bytes of memory free for a new run (Linux's MemAvailable, else the physical memory)."""
    try:
        with open('/proc/meminfo') as f:
            for line in f:
                if line.startswith('MemAvailable:'):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES')


def check_memory(need, what, advice):
    """Refuse a run whose estimated memory `need` (bytes) would not fit."""
    budget = MEMORY_SHARE * available_memory()
    if need > budget:
        raise UserError(f'{what} would need about {need / 2 ** 30:,.1f} GiB of memory, and this machine has '
                        f'{budget / 2 ** 30:,.1f} GiB to spare: {advice}')


def search_bytes(game, sims, games_at_once):
    """The batched search's arrays (see batched_mcts.search): per node, 4 numbers of 8 bytes and a
    flag per action, the path arrays, and the position itself."""
    per_node = 33 * game.ACTION_COUNT + 16 + 4 * math.prod(game.INPUT_SHAPE)
    return games_at_once * (sims + 1) * per_node


def largest_search(game, games_at_once=1):
    """The most simulations per move whose search fits this machine's memory (and MAX_SIMS)."""
    per_simulation = search_bytes(game, 1, games_at_once) / 2
    return max(1, min(MAX_SIMS, int(MEMORY_SHARE * available_memory() / per_simulation) - 1))


def check_search(game, sims, games_at_once=1):
    check_memory(search_bytes(game, sims, games_at_once), f'searching {games_at_once:,} games at once with {sims:,} '
                 'simulations per move', 'lower --sims or --parallel.')


def longest_random_game(game, count=8):
    """The most moves in `count` games of random moves (a stand-in for a self-play game's length)."""
    if game.NAME not in GAME_LENGTHS:
        rng = random.Random(0)
        longest = 0
        for _ in range(count):
            state, moves = game.State(), 0
            while not state.is_done():
                state, moves = state.next(rng.choice(state.legal_actions())), moves + 1
            longest = max(longest, moves)
        GAME_LENGTHS[game.NAME] = longest
    return GAME_LENGTHS[game.NAME]


GAME_LENGTHS = {}  # by game name: measured once per process


def sample_bytes(game):
    """One training sample (position, policy, value) in float32."""
    return 4 * (math.prod(game.INPUT_SHAPE) + game.ACTION_COUNT + 1)


def check_history(game, game_count):
    """Self-play keeps every position of the stage in memory until it writes the history file (as
    Python lists first: about 200 bytes more a position)."""
    check_memory(game_count * longest_random_game(game) * (sample_bytes(game) + 200), f'recording {game_count:,} games',
                 'lower --games.')


def check_samples(game, samples):
    """Training on drawn samples holds them all at once."""
    check_memory(samples * sample_bytes(game), f'training on {samples:,} samples at once', 'lower --samples.')


def check_self_play(game, game_count, sims, parallel):
    """What a self-play stage of `game_count` games, `parallel` of them at once, holds in memory."""
    check_search(game, sims, min(parallel, game_count))
    check_history(game, game_count)


def network_parameters(game, network, filters, blocks, width, layers):
    """About how many weights a network of these flags has (the large terms of dual_network.py)."""
    squares = math.prod(game.INPUT_SHAPE[:-1])
    if network == 'transformer-dense':
        return layers * 12 * width * width + squares * width * (game.ACTION_COUNT + 256)
    if network == 'transformer':
        return layers * 12 * width * width + squares * width * (game.ACTION_COUNT + 2)
    return (2 * blocks + 1) * 9 * filters * filters + squares * filters * (game.ACTION_COUNT + 2)


def check_network(game, args):
    """A network, its gradients and Adam's two moments, four copies of every weight in float32."""
    parameters = network_parameters(game, args.network, args.filters, args.blocks, args.width, args.layers)
    check_memory(16 * parameters, f'a {args.network} network of about {parameters:,} weights',
                 'lower --filters and --blocks (or --width and --layers).')
