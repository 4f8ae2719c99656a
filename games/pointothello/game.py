# ====================
# Point-Othello (点数制リバーシ): 8x8 Othello where every stone is worth points
# ====================
# The board, moves, flips, passes and the end of the game are 8x8 Othello's (games/othello8/game.py). A game
# has a sequence of 60 values, integers from -30 to 30, drawn uniformly among the sequences that sum
# to 0; each move places a stone carrying the next value (a pass uses none), and a flipped stone
# keeps its value and changes owner. The four starting stones are worth 0. At the end each side
# scores the values of its stones; the higher score wins, equal scores draw.
#
# A player sees every stone's value, the value to place now and the next three; the values after
# those are hidden (their sum is known: the total is 0). The State holds the whole sequence, so a
# search that calls next() sees the future values; determinize() resamples what a player cannot see,
# which is how the AI plays anyone fairly (the point-Othello page lets only self-play look ahead).

import functools
import random
import sys

import numpy as np

from games.othello8 import game as othello
from alphazero.game.opponents import alpha_beta_player, random_action

# The network's view of the game
NAME = 'pointothello'
SIZE = 8
BOARD_SHAPE = (SIZE, SIZE)
INPUT_SHAPE = (SIZE, SIZE, 8)  # own stones, opponent's, own points, opponent's points, value now, next 3 values
ACTION_COUNT = SIZE * SIZE + 1
PASS = SIZE * SIZE
MOVES = SIZE * SIZE - 4        # stones placed in a full game: one value each
RANDOM_START = True            # each game is dealt its values: evaluations play duplicate games
VALUE_RANGE = 30               # values are -30..30; the planes show them divided by this (as the point-Othello page does)
VISIBLE = 4                    # the value to place now and the next three
# How it looks (the window and the page): Othello's board and stones
TITLE = {'en': 'Point-Othello', 'ja': '点数制リバーシ'}
STONE_COLORS, STONE_SHADES = othello.STONE_COLORS, othello.STONE_SHADES
BOARD_COLOR, LINE_COLOR = othello.BOARD_COLOR, othello.LINE_COLOR

RULES = othello                  # moves, flips, passes and the end of the game
SYMMETRIES = othello.SYMMETRIES  # every plane is per square or constant, so the board's 8 symmetries hold

# ----- the values -----
@functools.cache
def sequence_counts():
    """counts[k][s + 30k]: how many sequences of k values sum to s (floats: up to 1e107)."""
    counts = [np.ones(1)]
    for _ in range(MOVES):
        counts.append(np.convolve(counts[-1], np.ones(2 * VALUE_RANGE + 1)))
    return counts


def uniform_values(count, total, rng):
    """`count` values in -30..30 summing to `total`, drawn uniformly among all such sequences: each
    value in turn, with the probability of the number of ways to finish the rest."""
    counts, values = sequence_counts(), []
    candidates = np.arange(-VALUE_RANGE, VALUE_RANGE + 1)
    for left in range(count - 1, -1, -1):
        rest = total - candidates + VALUE_RANGE * left   # index of the rest's sum in counts[left]
        ways = np.where((rest >= 0) & (rest < len(counts[left])), counts[left][np.clip(rest, 0, len(counts[left]) - 1)], 0)
        value = int(candidates[rng.choice(len(candidates), p=ways / ways.sum())])
        values.append(value)
        total -= value
    return values


# Game state
class State:
    # Initialise: the starting position, with a new random sequence unless one is given. `board`
    # is the Othello position, `values` the value of the stone on each square (0 where empty),
    # `used` how many values the moves so far have placed
    def __init__(self, sequence=None, board=None, values=None, used=0, rng=None):
        if sequence is None:
            sequence = uniform_values(MOVES, 0, rng or np.random.default_rng(random.getrandbits(64)))
        self.sequence = tuple(sequence)
        self.board = board or RULES.State()
        self.values = values or (0,) * (SIZE * SIZE)
        self.used = used

    # The side to move's points and the opponent's
    def scores(self):
        own = RULES.State.BOARD.bits_to_squares(self.board.pieces)
        other = RULES.State.BOARD.bits_to_squares(self.board.enemy_pieces)
        values = np.array(self.values)
        return int(values @ own), int(values @ other)

    # The values a player sees: the one to place now and the next three (fewer near the end)
    def visible_values(self):
        return self.sequence[self.used:self.used + VISIBLE]

    def is_done(self):
        return self.board.is_done()

    # Lost / draw: the game is over and the side to move scored less / as much
    def is_lose(self):
        if not self.is_done():
            return False
        own, other = self.scores()
        return own < other

    def is_draw(self):
        if not self.is_done():
            return False
        own, other = self.scores()
        return own == other

    # The state after `action`: a stone carrying the next value (flipped stones keep theirs)
    def next(self, action):
        if action == PASS:
            return State(self.sequence, self.board.next(PASS), self.values, self.used)
        values = list(self.values)
        values[action] = self.sequence[self.used]
        return State(self.sequence, self.board.next(action), tuple(values), self.used + 1)

    def legal_actions(self):
        return self.board.legal_actions()

    def is_first_player(self):
        return self.board.is_first_player()

    # The network's input (the point-Othello page's 8 planes), from the side to move; points scaled by 1/30
    def planes(self):
        own = RULES.State.BOARD.bits_to_squares(self.board.pieces).astype(np.float32)
        other = RULES.State.BOARD.bits_to_squares(self.board.enemy_pieces).astype(np.float32)
        points = np.array(self.values, np.float32) / VALUE_RANGE
        upcoming = list(self.visible_values()) + [0] * VISIBLE
        planes = [own, other, points * own, points * other] + [np.full(SIZE * SIZE, v / VALUE_RANGE, np.float32)
                                                               for v in upcoming[:VISIBLE]]
        return np.stack(planes, axis=-1).reshape(INPUT_SHAPE)

    # Squares by owner: +1 first player, -1 second player, 0 empty
    def cells(self):
        return self.board.cells()

    # Text board: each stone as its owner's mark and value, then the scores and the values to come
    def __str__(self):
        cells = self.cells()
        marks = {1: 'o', -1: 'x'}
        rows = [' '.join(f'{marks[cells[r * SIZE + c]]}{self.values[r * SIZE + c]:+3d}' if cells[r * SIZE + c] else '  . '
                         for c in range(SIZE)) for r in range(SIZE)]
        return '\n'.join(rows + [status(self)])


# The line under the board: both scores and the values to place (human_play.py); `names` of the
# first and the second player
def status(state, names=('o', 'x'), lang='en'):
    own, other = state.scores()
    first, second = (own, other) if state.is_first_player() else (other, own)
    japanese = lang == 'ja'
    text = f'得点: {names[0]} {first}、{names[1]} {second}' if japanese else f'score: {names[0]} {first}, {names[1]} {second}'
    if not state.visible_values():
        return text
    now, *coming = state.visible_values()
    then = ' '.join(f'{v:+}' for v in coming)
    if japanese:
        return text + f'。今置く石の値: {now:+}' + (f'、その後: {then}' if coming else '')
    return text + f'; to place now: {now:+}' + (f', then {then}' if coming else '')


# What a player cannot see replaced by a fresh draw among the sequences it could be (same sum)
def stone_label(state, square):
    """The value of the stone on a square, written on it."""
    return f'{state.values[square]:+d}'


def determinize(state, rng):
    known = state.used + VISIBLE
    if known >= MOVES:
        return state
    hidden = uniform_values(MOVES - known, -sum(state.sequence[:known]), rng)
    return State(state.sequence[:known] + tuple(hidden), state.board, state.values, state.used)


# A click on a square plays that square (the pass has no square: human_play plays it for you)
def square_action(square):
    return square


# Heuristic of the opponents: the side to move's points minus the opponent's
def heuristic(state):
    own, other = state.scores()
    return own - other


# The first player's points minus the second player's
def score(state):
    return heuristic(state) if state.is_first_player() else -heuristic(state)


MARGIN_SCALE = 500  # points: 99% of random games end within 320


# The opponents of evaluate_best_player.py: random; greedy (the best immediate change of the score);
# alpha-beta to depth 4, which only needs the four values a player sees
def opponents():
    return {'VS_Random': random_action, 'VS_Greedy': alpha_beta_player(heuristic, 1),
            'VS_AlphaBeta4': alpha_beta_player(heuristic, 4)}


# Play one random game when run alone
if __name__ == '__main__':
    from alphazero.game.registry import play_random_game
    play_random_game(sys.modules[__name__])
