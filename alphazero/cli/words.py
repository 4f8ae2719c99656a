"""What the players (human_play.py's window and terminal) say, in English and Japanese: --lang en|ja,
else Japanese when the locale is Japanese (LC_ALL, LC_MESSAGES or LANG starting with ja)."""
import os

from alphazero.play.levels import NEAR

LANGUAGES = ('en', 'ja')


WORDS = {
    'en': {
        'lang': 'en', 'win': 'You win', 'draw': 'Draw', 'lose': 'You lose', 'again': ' - click for a new game',
        'pass': 'you have no move and pass', 'your_move': 'your move', 'thinking': 'AI is thinking...',
        'you_side': 'you: {side} - ', 'pick': 'your move: pick a piece, then its square',
        'ask': 'your move {offered}: ', 'illegal': '{answer!r} is not a legal move; type one of {offered}',
        'you_play': 'You play {side}. {help}', 'you_are': 'You are {mark}. Type the number shown {where}.',
        'under_column': 'under a column', 'on_square': 'on a square', 'ai_plays': 'AI plays {move}', 'bye': 'bye',
        'settai': 'settai mode: the AI aims for a close game',
        'level': 'level {number}', 'policy': 'policy alone', 'sampled': 'policy alone, sampled',
        'simulations': '{count} simulations', 'elo': 'Elo {elo:.0f}', 'not_measured': 'not measured',
        'about': 'about {name}', 'colours': {},
    },
    'ja': {
        'lang': 'ja', 'win': 'あなたの勝ち', 'draw': '引き分け', 'lose': 'あなたの負け', 'again': '（クリックで次の対局）',
        'pass': '打てる所がないのでパスします', 'your_move': 'あなたの番です', 'thinking': 'AI が考えています…',
        'you_side': 'あなた: {side}　', 'pick': 'あなたの番です: 駒を選んでから行き先のマスを選んでください',
        'ask': 'あなたの手 {offered}: ', 'illegal': '{answer!r} は指せません。{offered} のどれかを入力してください',
        'you_play': 'あなたは {side} です。{help}', 'you_are': 'あなたは {mark} です。{where}表示された番号を入力してください。',
        'under_column': '列の下に', 'on_square': 'マスに', 'ai_plays': 'AI の手: {move}', 'bye': '終了します',
        'settai': '接待モード: AI は接戦になるように打ちます',
        'level': 'レベル {number}', 'policy': '方策のみ', 'sampled': '方策のみ・確率的',
        'simulations': '探索 {count} 回', 'elo': 'Elo {elo:.0f}', 'not_measured': '未測定',
        'about': '{name} くらい', 'colours': {'black': '黒', 'white': '白', 'red': '赤', 'yellow': '黄'},
    },
}


def language(asked=None, environ=os.environ):
    """The language to speak: `asked` (--lang), else Japanese for a Japanese locale, else English."""
    if asked:
        return asked
    for name in ('LC_ALL', 'LC_MESSAGES', 'LANG'):
        if environ.get(name):
            return 'ja' if environ[name].lower().startswith('ja') else 'en'
    return 'en'


def words(lang='en'):
    return WORDS[lang]


def game_text(text, said):
    """A game's own text (MOVE_HELP, SIDE_NAMES) in the language of `said`: the game gives one, or
    one per language, English always among them."""
    return text.get(said['lang'], text['en']) if isinstance(text, dict) else text


def colour(name, said):
    """A stone colour's name ('black') in the language of `said`."""
    return said['colours'].get(name, name)


def setting_text(level, said):
    """How a level plays: '25 simulations', 'policy alone', 'policy alone, sampled'."""
    if level.simulations:
        return said['simulations'].format(count=level.simulations)
    return said['sampled'] if level.temperature else said['policy']


def level_text(level, said):
    """A level as the player says it: 'level 3 (25 simulations, Elo 812, about alpha-beta depth 2)'."""
    parts = [setting_text(level, said)]
    if level.elo is None:
        parts.append(said['not_measured'])
    else:
        parts.append(said['elo'].format(elo=level.elo))
        difference = level.near_difference
        parts.append(said['about'].format(name=level.near) if abs(difference) <= NEAR else f'{level.near} {difference:+.0f}')
    return f'{said["level"].format(number=level.number)} ({", ".join(parts)})'
