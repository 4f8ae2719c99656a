"""How a game of full shogi ended, in the words its records and players use: KIF's last move line
(詰み, 投了, 千日手, ...), its result line (まで95手で先手の勝ち) and the same in English. The game
(games/shogi9, its contract's `conclusion`) and the records (alphazero/records/shogi.py) share them."""
from alphazero.game.shogi_handicaps import side_names


# How a game ended, as KIF's last move line says it, and whether the side to move lost ('lose'),
# won ('win') or drew: the rules' ending, or the side to move resigned, or the game was left unfinished
KIF_ENDINGS = {'mate': ('詰み', 'lose'), 'resign': ('投了', 'lose'), 'repetition': ('千日手', 'draw'),
               'perpetual_check': ('反則負け', 'lose'), 'opponent_perpetual_check': ('反則勝ち', 'win'),
               'move_limit': ('持将棋', 'draw'), 'interrupted': ('中断', None)}
ENDING_WORDS = {'mate': {'en': 'checkmate', 'ja': '詰み'}, 'resign': {'en': 'resignation', 'ja': '投了'},
                'repetition': {'en': 'fourfold repetition (sennichite)', 'ja': '千日手'},
                'perpetual_check': {'en': 'perpetual check', 'ja': '連続王手の千日手'},
                'opponent_perpetual_check': {'en': 'perpetual check', 'ja': '連続王手の千日手'},
                'move_limit': {'en': 'the 256-move limit', 'ja': '256手ルール'}, 'interrupted': {'en': 'interrupted', 'ja': '中断'}}


def how_it_ended(state, resigned=False):
    """The key of KIF_ENDINGS that says how a game reached `state` ended."""
    ending = state.ending()
    if ending == 'lose':
        return 'mate' if not state.legal_actions() else 'perpetual_check'
    if ending == 'win':
        return 'opponent_perpetual_check'
    if ending == 'draw':
        return 'repetition' if state.repetition() else 'move_limit'
    return 'resign' if resigned else 'interrupted'


def conclusion(state, resigned=False, lang='ja'):
    """The end of a game as a record says it: 'まで95手で先手の勝ち（詰み）', 'まで80手で千日手';
    in English 'sente wins by checkmate after 95 moves'."""
    how = how_it_ended(state, resigned)
    outcome, word = KIF_ENDINGS[how][1], ENDING_WORDS[how][lang]
    if lang == 'ja':
        return kif_result(state, how) + (f'（{word}）' if outcome in ('win', 'lose') else '')
    plies = state.plies()
    if outcome in ('win', 'lose'):
        winner = side_names(state.sfen, 'en')[0 if state.is_first_player() == (outcome == 'win') else 1]
        return f'{winner} wins by {word} after {plies} moves'
    return f'{"drawn" if outcome == "draw" else "stopped"} after {plies} moves ({word})'


def kif_result(state, how):
    """KIF's result line, in the words its readers parse: まで95手で先手の勝ち, まで80手で千日手, ...
    (a handicap game's sides are 下手 and 上手: まで60手で下手の勝ち)"""
    plies, outcome = state.plies(), KIF_ENDINGS[how][1]
    if outcome is None:
        return f'まで{plies}手で中断'
    if outcome == 'draw':
        return f'まで{plies}手で{KIF_ENDINGS[how][0]}'
    mover_won = outcome == 'win'
    winner = side_names(state.sfen)[0 if state.is_first_player() == mover_won else 1]
    return f'まで{plies}手で{winner}の勝ち'
