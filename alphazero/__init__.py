"""What the stage scripts share, in wings that import only downwards (tests/quality/test_imports.py):

    errors, files, limits   the base: one-line errors, safe writes, the limits of every number
    settings    every setting, one frozen dataclass per purpose, its defaults the book's constants
    game/       the game contract, the registry, values, paths and move notation
    search/     the batched PV-MCTS as parts: tree, PUCT, Gumbel, noise, evaluator
    network/    the network runtimes (Keras, onnxruntime), model files, ONNX export, loading
    data/       self-play histories, training targets, the training loop's parts, run folders
    records/    game records of other programs: Othello (WTHOR, transcripts), shogi (CSA, KIF, USI)
    play/       the AI player (agent.py), players, the game loop, the match runner, openings, settai, levels, Elo, the exact judge, Ray workers
    engines/    other programs over GTP and USI, and the protocol loop our engines answer with
    cli/        the command line: flags, recipes (games/NAME/recipe.py), words in two languages
"""
import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the folder of the stage scripts

# TensorFlow prints pages of C++ notices at import; keep warnings and errors only. Set here, before
# anything of the package can import it.
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
