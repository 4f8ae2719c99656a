# The book's simple shogi (どうぶつしょうぎ-like, 3x4): the training recipe for a small CPU. train_cycle.py --game shogi reads all
# of it; each stage script reads the part for its purpose; flags typed on the command line win.
# How each value was chosen, and what it reaches: docs/training.md.

from games.small_cpu import cycle, student  # noqa: F401 (the lines every small-CPU recipe shares)

network = dict(network='resnet', filters=64, blocks=4)
search = dict(sims=50)
self_play = dict(games=100)
exploration = dict(dirichlet=0.5, random_opening=2, greedy_after=12)
training = dict(samples=16384, window=10)
evaluation = dict(opening=2)
