# Full shogi (本将棋): the recipe for a small CPU. A network first learns from engine records
# (train_records.py --game shogi9, docs/shogi.md); train_cycle.py --game shogi9 then goes on with
# self-play from it. Flags typed on the command line win.

from games.small_cpu import cycle, student  # noqa: F401 (the lines every small-CPU recipe shares)

network = dict(network='resnet', filters=64, blocks=6)
search = dict(sims=100)
play = dict(play_sims=100)  # what a trained model records (train_records.py's too): the programs that play it search this many
self_play = dict(games=40)
exploration = dict(dirichlet=0.15, random_opening=4, greedy_after=30)
training = dict(samples=32768, window=10)
evaluation = dict(opening=4)
