# Point-Othello (点数制リバーシ): the training recipe for a small CPU. train_cycle.py --game pointothello reads all
# of it; each stage script reads the part for its purpose; flags typed on the command line win.
# How each value was chosen, and what it reaches: docs/training.md.

from games.small_cpu import cycle, student  # noqa: F401 (the lines every small-CPU recipe shares)

network = dict(network='resnet', filters=64, blocks=5)
search = dict(sims=50)
self_play = dict(games=60)
exploration = dict(dirichlet=0.8, random_opening=2, greedy_after=16)
training = dict(samples=28672, window=10)
