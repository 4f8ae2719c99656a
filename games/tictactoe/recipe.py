# Tic-tac-toe: the book's own settings, the constants at the top of each stage script
# (SP_GAME_COUNT, PV_EVALUATE_COUNT, RN_EPOCHS, ...). Nothing to change here: `train_cycle.py
# --preset fast` is the quick recipe, and flags typed on the command line change any value.
