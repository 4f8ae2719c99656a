# Connect Four: the training recipe for a small CPU. train_cycle.py --game connect4 reads all
# of it; each stage script reads the part for its purpose; flags typed on the command line win.
# How each value was chosen, and what it reaches: docs/training.md.

from games.small_cpu import cycle, student  # noqa: F401 (the lines every small-CPU recipe shares)

network = dict(network='resnet', filters=64, blocks=5)
search = dict(sims=16, gumbel=8)  # self-play's search: Gumbel's sampling over 8 moves, so no Dirichlet noise
play = dict(play_sims=50)         # what a trained model records: the programs that play it search this many
self_play = dict(games=200)
exploration = dict(dirichlet=0, random_opening=2, greedy_after=10, q_ratio=0.5)
training = dict(samples=24576, window=10)
evaluation = dict(opening=2)
