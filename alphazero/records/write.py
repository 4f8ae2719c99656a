"""One game written as the record its players read: KIF for full shogi (ShogiHome, 将棋所, ShogiGUI),
a transcript (f5d6c3...) for the games of squares, each with the AI's evaluation of its moves."""
from alphazero.records.othello import write_transcripts
from alphazero.records.shogi import write_kif


def record_extension(game):
    """'.kif' for full shogi (ENGINE_PROTOCOL 'usi'), '.txt' for a game of squares, None for a game
    with no record format."""
    if game.ENGINE_PROTOCOL == 'usi':
        return '.kif'
    return '.txt' if game.square_action is not None else None


def write_record(path, game, actions, evaluations=None, names=('', ''), resigned=False, started=None, start=None):
    """The game of `actions` (passes included) as a record at `path` (record_extension's format):
    `evaluations` ({ply: (value for the mover, line of actions)}) become KIF's *#評価値 / *#読み筋
    comments or the transcript's `# 12 d3 +0.35 d3 c4 e3` lines; `names` (first player, second),
    `resigned` (the side to move of the last position resigned) and `start` (a handicap's State) go
    where KIF keeps them."""
    if path.endswith('.kif') or path.endswith('.kifu'):
        write_kif(path, actions, game, names, resigned, started, evaluations, start)
    else:
        write_transcripts(path, [actions], game, [evaluations])
