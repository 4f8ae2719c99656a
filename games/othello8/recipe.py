# 8x8 Othello: the training recipe for a small CPU. train_cycle.py --game othello8 reads all
# of it; each stage script reads the part for its purpose; flags typed on the command line win.
# How each value was chosen, and what it reaches: docs/training.md.

from games.small_cpu import cycle, student  # noqa: F401 (the lines every small-CPU recipe shares)

network = dict(network='resnet', filters=32, blocks=4)
search = dict(sims=16, gumbel=8)  # self-play's search: Gumbel's sampling over 8 moves, so no Dirichlet noise
play = dict(play_sims=800)        # what a trained model records: the programs that play it search this many
self_play = dict(games=120)
exploration = dict(dirichlet=0, random_opening=2, greedy_after=16)
training = dict(samples=28672, window=10)
evaluation = dict(opening=4)
