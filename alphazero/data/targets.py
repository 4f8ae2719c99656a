"""Finished self-play games as training targets: positions, move distributions, values and margins."""
import numpy as np

from alphazero.game.values import terminal_value


# Turn finished games into arrays: the value target of each recorded move is the game's result for
# the side that made it (going back from the end, the side flips every ply; a pass is a ply too),
# beyond the book mixed with its search's value of the position: (1 - q_ratio) x result + q_ratio x value
def games_to_arrays(results, q_ratio=0.0):
    positions, policies, values = [], [], []
    for played in results:
        last_mover_value = -terminal_value(played.state)
        for planes, policy, ply, search_value in played.records:
            result = last_mover_value * (-1) ** (played.plies - 1 - ply)
            values.append((1 - q_ratio) * result + q_ratio * search_value if q_ratio else result)
            positions.append(planes)
            policies.append(policy)
    return np.stack(positions), np.stack(policies), np.array(values, dtype=np.float32)


# The margin target of each recorded move: the game's final margin (discs, points) for the side
# that made it, flipping every ply as the values do, as a share of the game's MARGIN_SCALE
def games_to_margins(results, game):
    margins = []
    for played in results:
        end = game.score(played.state) * (1 if played.state.is_first_player() else -1)  # for the side to move
        margins += [-end * (-1) ** (played.plies - 1 - ply) for _, _, ply, _ in played.records]
    return np.clip(np.array(margins, dtype=np.float32) / game.MARGIN_SCALE, -1, 1)
