"""What the players (human_play.py's window and terminal) say, in English and Japanese: --lang en|ja,
else Japanese when the locale is Japanese (LC_ALL, LC_MESSAGES or LANG starting with ja)."""
import os
import re

from alphazero.play.levels import NEAR

LANGUAGES = ('en', 'ja')


WORDS = {
    'en': {
        'lang': 'en', 'win': 'You win', 'draw': 'Draw', 'lose': 'You lose', 'again': ' - click for a new game',
        'pass': 'you have no move and pass', 'pass_move': 'pass', 'your_move': 'your move', 'thinking': 'AI is thinking...',
        'you_side': 'you: {side} - ', 'pick': 'your move: pick a piece, then its square',
        'ask': 'your move ({offered}): ', 'illegal': '{answer!r} is not a legal move here ({offered})',
        'illegal_why': '{answer!r} cannot be played: {why}',
        'example': 'for example {move}', 'you_play': 'You play {side}. {help}',
        'you_are': 'You are {mark}. {where}', 'colour_of': ' ({colour})',
        'by_square': 'Type a square by its column and row (f5); * marks the legal ones.',
        'by_column': "Type a column's letter (d).", 'resign_undo': 'Type resign to give up, undo to take back your last move.',
        'undone': 'taken back', 'nothing_to_undo': 'there is no move of yours to take back', 'ai_plays': 'AI plays {move}', 'solved': ' (solved: {result})',
        'bye': 'bye', 'saved': 'record saved: {path}', 'you_name': 'you',
        'review': 'Review: your moves that lost 20 points or more of your expected score are bad moves, 10 or more '
                  'dubious moves (expected score with the move the AI prefers -> with yours)',
        'review_record': 'Review of {path}, game {number} of {games} ({moves} moves): the moves that lost 20 points or '
                         'more of their mover\'s expected score are bad moves, 10 or more dubious moves',
        'marked': '  {number}. {move}: {label} ({before}% -> {after}%{exact}); the AI prefers {best} (its line: {line})',
        'exact': ', exact', 'bad_move': 'bad move', 'dubious_move': 'dubious move',
        'no_marks': '  no move of yours was marked', 'no_marks_record': '  no move was marked',
        'no_games': '{path}: no game in it could be read',
        'no_window': '{game} has no window here: play it with --text, or in a shogi GUI through usi_engine.py (docs/shogi.md)',
        'ai_is': 'AI: {description}, {sims} simulations a move at full strength ({why}); playing at {level} of {levels}',
        'settai': 'settai (close-game) mode: the AI aims for a close game without giving away a won one',
        'level': 'level {number}', 'policy': 'policy alone', 'sampled': 'policy alone, sampled',
        'simulations': '{count} simulations', 'elo': 'Elo {elo:.0f}', 'not_measured': 'not measured',
        'about': 'about {name}', 'off': '{name} {difference:+.0f}', 'parts': '{level} ({parts})', 'comma': ', ',
        'colours': {},
        'handicap': 'a {name} handicap game: the AI, uwate (上手), plays without those pieces and moves first',
        'handicap_sides': ('shitate (下手, moving up the board)', 'uwate (上手, moving down the board, the AI giving the handicap)'),
        'no_handicap': '{game} has no handicap games: --handicap is for full shogi (--game shogi9)',
        'handicap_second': 'in a handicap game the AI, as uwate (上手), moves first already: leave out --second',
    },
    'ja': {
        'lang': 'ja', 'win': 'あなたの勝ち', 'draw': '引き分け', 'lose': 'あなたの負け', 'again': '（クリックで次の対局）',
        'pass': '打てる所がないのでパスします', 'pass_move': 'パス', 'your_move': 'あなたの番です', 'thinking': 'AI が考えています…',
        'you_side': 'あなた: {side}　', 'pick': 'あなたの番です: 駒を選んでから行き先のマスを選んでください',
        'ask': 'あなたの手（{offered}）: ', 'illegal': '{answer!r} は指せません（{offered}）',
        'illegal_why': '{answer!r} は指せません: {why}',
        'example': '例: {move}', 'you_play': 'あなたは {side} です。{help}',
        'you_are': 'あなたは {mark}です。{where}', 'colour_of': '（{colour}）',
        'by_square': 'マスを列の文字と行の数字で入力してください（f5）。＊ が打てるマスです。',
        'by_column': '列の文字を入力してください（d）。', 'resign_undo': '投了 で投了、待った で直前の自分の手を戻します。',
        'undone': '待った: 手を戻しました', 'nothing_to_undo': '戻せる手がありません', 'ai_plays': 'AI の手: {move}', 'solved': '（読み切り: {result}）',
        'bye': '終了します', 'saved': '棋譜を保存しました: {path}', 'you_name': 'あなた',
        'review': '振り返り: 見込み（期待得点）を 20 ポイント以上失った手を悪手、10 ポイント以上を疑問手としています'
                  '（AI の推奨手での見込み → 指した手での見込み）',
        'review_record': '振り返り: {path} の {games} 局中 {number} 局目（{moves} 手）。指した側の見込み（期待得点）を '
                         '20 ポイント以上失った手を悪手、10 ポイント以上を疑問手としています',
        'marked': '  {number} 手目 {move}: {label}（見込み {before}% → {after}%{exact}）。AI の推奨は {best}（読み筋 {line}）',
        'exact': '・確定', 'bad_move': '悪手', 'dubious_move': '疑問手',
        'no_marks': '  印のついた手はありません', 'no_marks_record': '  印のついた手はありません',
        'no_games': '{path}: 読める対局がありません',
        'no_window': '{game} はウィンドウでは遊べません。--text で端末で遊ぶか、usi_engine.py で将棋 GUI から遊んでください（docs/ja/shogi.md）',
        'ai_is': 'AI: {description}。最大の強さで 1 手 {sims} シミュレーション（{why}）。{levels} 段階の{level}で対局します',
        'settai': '接待（接戦）モード: AI は勝ちを手放さずに接戦をめざします',
        'level': 'レベル {number}', 'policy': 'ポリシー出力のみ', 'sampled': 'ポリシー出力のみ・確率的',
        'simulations': 'シミュレーション回数 {count}', 'elo': 'Elo {elo:.0f}', 'not_measured': '未測定',
        'about': '{name} くらい', 'off': '{name} より {gap:.0f} {higher_lower}', 'parts': '{level}（{parts}）',
        'comma': '、', 'higher': '高い', 'lower': '低い', 'colours': {'black': '黒', 'white': '白', 'red': '赤', 'yellow': '黄'},
        'handicap': '{name}: AI が上手（うわて）として駒を落とし、先に指します',
        'handicap_sides': ('下手（盤の上へ進む）', '上手（盤の下へ進む・駒を落とす AI）'),
        'no_handicap': '{game} には駒落ちがありません。--handicap は本将棋（--game shogi9）で使えます',
        'handicap_second': '駒落ちでは上手の AI が先に指すので、--second は付けないでください',
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


# What the players print about the model and its opponents, said in Japanese: (pattern, replacement)
JAPANESE = ((r'^(.*) converted to ONNX, on onnxruntime$', r'\1（ONNX に変換して onnxruntime で）'),
            (r'^(.*) on onnxruntime$', r'\1（onnxruntime で）'), (r'^(.*) on Keras$', r'\1（Keras で）'),
            (r'^as asked$', '指定どおり'), (r'^as recorded in (.*)$', r'\1 の記録どおり'),
            (r'^the default; the model records none$', '既定値。モデルに記録がありません'),
            (r'^random player$', 'ランダム'), (r'^alpha-beta \(perfect\)$', 'αβ探索（完全読み）'),
            (r'^Monte Carlo tree search$', 'モンテカルロ木探索'), (r'^greedy player$', '貪欲法'),
            (r'^alpha-beta depth (\d+)$', r'αβ探索 深さ \1'), (r'^GRhino level (\d+)$', r'GRhino レベル \1'),
            (r'^Fairy-Stockfish skill (-?\d+) depth (\d+)$', r'Fairy-Stockfish スキル \1 深さ \2'),
            (r'^Fairy-Stockfish depth (\d+)$', r'Fairy-Stockfish 深さ \1'))


# The errors a player meets (a model missing, of another game or damaged; no window; no cshogi),
# said in Japanese: first the advice inside a message, then the message around it
JAPANESE_ADVICE = (
    (r'give a model of (\w+) \(its best\.h5, or the best\.onnx that export\.py writes\)',
     r'\1 のモデル（best.h5、または export.py が書き出す best.onnx）を指定してください'),
    (r'move it away, then `(python dual_network\.py[^`]*)` creates a new one, `(python train_cycle\.py[^`]*)` trains it',
     r'別の場所へ移してから `\1` で新しく作り、`\2` で学習してください'),
    (r'`(python dual_network\.py[^`]*)` creates a new one, `(python train_cycle\.py[^`]*)` trains it',
     r'`\1` で新しく作り、`\2` で学習してください'),
    (r'move it away(?:, then|;) `(python [^`]+)` writes it(?: again from the \.h5 file)?', r'別の場所へ移してから `\1` で作り直してください'),
    (r'`(python [^`]+)` writes it', r'`\1` で作れます'),
    (r'; if it is a model of (.+?), add --game (\w+)', r'。\1 のモデルなら --game \2 を付けてください'),
)
JAPANESE_ERRORS = (
    (r'^(.+?) not found: (.*)\.$', r'\1 がありません: \2。'),
    (r'^(.+?) is a folder, not a model file: give the model inside it, for example (.+)\.$',
     r'\1 はフォルダーです。中のモデルのファイル（たとえば \2）を指定してください。'),
    (r'^(.+?) takes input (\(.*?\)), but (\w+) needs (\(.*?\)): (.*)\.$', r'\1 の入力は \2 ですが、\3 には \4 が必要です: \5。'),
    (r'^(.+?) has outputs (.*), but (\w+) needs (.*?) \(and (.*?)\): (.*)\.$', r'\1 の出力は \2 ですが、\3 には \4 が必要です: \6。'),
    (r'^(.+?) has inputs/outputs (.*), not (.*?) \(and (.*?)\): (.*)\.$', r'\1 の入出力は \2 で、\3 ではありません: \5。'),
    (r'^(.+?) is not a readable (Keras|ONNX) model \((.*)\): (.*)\.$', r'\1 は読み込める \2 のモデルではありません（\3）: \4。'),
    (r'^(.+?) is missing or older than (.+?): run `python export.py` first\.$',
     r'\1 がないか \2 より古いので、先に `python export.py` を実行してください。'),
    (r'^cannot open a window \((.*)\); use --text to play in the terminal$',
     r'ウィンドウを開けません（\1）。--text を付けると端末で対局できます。'),
    (r'^full shogi \(--game shogi9\) needs the cshogi library .*$',
     '本将棋（--game shogi9）には cshogi ライブラリ（GPL-3.0、追加のライブラリ）が必要です。'
     '`WITH_SHOGI=1 bash setup.sh`（または `pip install cshogi`）でインストールしてください。'),
)


def said_error(message, said):
    """An error's message in the language of `said`: the player's errors in Japanese, any other as it is."""
    if said['lang'] != 'ja' or not any(re.match(pattern, message) for pattern, _ in JAPANESE_ERRORS):
        return message
    for pattern, replacement in JAPANESE_ADVICE:
        message = re.sub(pattern, replacement, message)
    for pattern, replacement in JAPANESE_ERRORS:
        if re.match(pattern, message):
            return re.sub(pattern, replacement, message)
    return message


def said_text(text, said):
    """A line of the model's or an opponent's description in the language of `said` (the page's
    web/i18n.js names the opponents the same way)."""
    if said['lang'] != 'ja':
        return text
    for pattern, replacement in JAPANESE:
        if re.match(pattern, text):
            return re.sub(pattern, replacement, text)
    return text


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
        near = said_text(level.near, said)
        off = said['off'].format(name=near, difference=difference, gap=abs(difference),
                                 higher_lower=said.get('higher' if difference > 0 else 'lower', ''))
        parts.append(said['about'].format(name=near) if abs(difference) <= NEAR else off)
    return said['parts'].format(level=said['level'].format(number=level.number), parts=said['comma'].join(parts))
