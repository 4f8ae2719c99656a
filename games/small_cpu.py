# The recipe lines that every game trained on a small CPU shares (each games/NAME/recipe.py imports
# them; tic-tac-toe trains with the book's settings). How they were chosen: docs/training.md.

# Train for up to 100 cycles with no gate games (the latest network always becomes the best player,
# as in the AlphaZero paper), meet the fixed opponents every 5 cycles and keep a copy of the best
# model every 10
cycle = dict(cycles=100, gate=False, eval_games=0, best_every=5, keep_every=10)
# distill.py's student: the resnet of AlphaGo Zero's heads
student = dict(network='resnet')
