# Gomoku (五目並べ) on 7x7: the training recipe for a small CPU. train_cycle.py --game gomoku reads
# all of it; each stage script reads the part for its purpose; flags typed on the command line win.
# How it was chosen: docs/adding-a-game.md.

from games.small_cpu import cycle, student  # noqa: F401 (the lines every small-CPU recipe shares)

network = dict(network='resnet', filters=32, blocks=3)
search = dict(sims=50)
self_play = dict(games=100)
exploration = dict(dirichlet=0.5, random_opening=2, greedy_after=12)
training = dict(samples=16384, window=10)
evaluation = dict(opening=2)
