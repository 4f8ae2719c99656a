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


# human_play.py --help in Japanese: each flag's help by its dest, and the groups' titles
PLAYER_HELP_JA = {
    'description': 'ベストプレイヤーのモデルと対局します。ウィンドウでマスをクリックするか、--text で端末から'
                   '手を入力します（マスに表示された番号や f5、将棋は ７六歩 などの棋譜の書き方）。',
    'game': '対局・学習するゲーム（既定: %(default)s）',
    'text': 'ウィンドウではなく端末で対局する',
    'second': 'AI に先手を持たせる',
    'handicap': '本将棋の駒落ち。AI が上手として駒を落とし、先に指します: '
                + '、'.join(['香落ち', '右香落ち', '角落ち', '飛車落ち', '飛香落ち', '二枚落ち', '四枚落ち', '六枚落ち',
                            '八枚落ち', '十枚落ち']),
    'level': 'レベル N で対局する。1 が最も弱く、ポリシー出力のみから、モデルのシミュレーション回数の 4 倍の探索まで'
             '（計測した強さ: docs/ja/strength.md）（既定: モデル自身のシミュレーション回数）',
    'backend': '推論の方法: auto は best.onnx が最新なら onnxruntime、そうでなければ Keras。int8 は export.py --int8 '
               'が書く int8 版（VNNI や AMX のある CPU で数倍速い）（既定: %(default)s）',
    'model': 'モデルファイル（.h5 か .onnx）（既定: そのゲームの best.h5。書き出しが最新なら onnxruntime で）',
    'lang': 'ウィンドウと端末の言語（既定: ロケールが日本語なら日本語、そうでなければ英語）',
    'review': '--text: 対局のあとに振り返りをし、見込み（期待得点）を 10 ポイント以上失った手を疑問手、20 ポイント以上を'
              '悪手として、AI の推奨手と読み筋を添える。棋譜ファイル（KIF、KI2、CSA、USI、オセロの棋譜）を付けると、'
              'その棋譜の両対局者の手を振り返って終了する',
    'save_to': '--text の対局を保存するフォルダ。本将棋は KIF、マスのゲームは棋譜（f5d6c3...）で保存。"" で保存しない'
               '（既定: %(default)s）',
    'sims': '1 手あたりのシミュレーション回数（本書の PV_EVALUATE_COUNT）（既定: モデルに記録された値、なければ 50）',
    'gumbel': 'Gumbel のルート探索: ルートで M 手を候補にし、シミュレーションを逐次半減で配分する。0 は本書の PUCT'
              '（既定: 0）',
    'margin_weight': '石差（マージン）出力のあるモデル: 局面を (1 - W) × バリュー出力 + W × マージンで評価する'
                     '（既定: 0.0）',
    'cache': '一度評価した局面も、毎回ニューラルネットワークで評価する',
    'solver': '探索の前にゲームのソルバーで局面を読み切らない（オセロの残り 10 空き、四目並べの 20 石以降、'
              '将棋の詰み）。1 手詰めの葉も勝ちとしない',
    'settai': '接待（接戦）モード: AI は勝ちではなく接戦をめざし、探索が負けと見る手は指さない',
}
PLAYER_GROUPS_JA = {"search settings (alphazero/settings.py's SearchSettings)": '探索の設定（alphazero/settings.py の SearchSettings）'}


def language_asked(argv):
    """The language --lang asks for in a command line (None when it asks none): known before the
    flags are parsed, so that --help speaks it."""
    for i, word in enumerate(argv):
        if word == '--lang' and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith('--lang='):
            return word.split('=', 1)[1]
    return None


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
    # what a record file that cannot be read says (alphazero/records/), for --review FILE
    (r'^(.+?): no such file$', r'\1: ファイルがありません'),
    (r'^(.+?): a folder, not a record file$', r'\1: フォルダーです。棋譜ファイルを指定してください'),
    (r'^(.+?): (\w+) reads (.+) record files$', r'\1: \2 が読める棋譜ファイルは \3 です'),
    (r'^(.+?): cannot be read \((.*)\)$', r'\1: 読めません（\2）'),
    (r'^(.+?): not a whole xz file .*$', r'\1: xz ファイルが途中で切れています。xz -d で展開して残りを確かめてください'),
    (r'^(.+?): move (\d+) is illegal \((.*)\); game skipped$', r'\1: \2 手目が反則です（\3）。この対局は読み飛ばします'),
    (r'^(.+?): move (\d+) \((.*)\) is not a legal move there; game skipped$',
     r'\1: \2 手目の \3 は指せない手です。この対局は読み飛ばします'),
    (r'^(.+?): not a readable (KIF|CSA) file \((.*)\); skipped$', r'\1: 読める \2 ファイルではありません（\3）。読み飛ばします'),
    (r'^(.+?): ends with (.*) after (\d+) moves, which says nothing about the position; skipped$',
     r'\1: \3 手のあとの終わり方（\2）からは勝敗がわかりません。読み飛ばします'),
    (r'^(.+?): has no ending after (\d+) moves, which says nothing about the position; skipped$',
     r'\1: \2 手のあとに終わり方がなく、勝敗がわかりません。読み飛ばします'),
    (r'^(.+?): starts from a position that is neither the usual start nor a handicap\'s; skipped$',
     r'\1: 平手でも駒落ちでもない局面から始まっています。読み飛ばします'),
    (r'^(.+?): 手合割 (.+) is not a handicap we know; skipped$', r'\1: 手合割「\2」は知らない駒落ちです。読み飛ばします'),
    (r'^(.+?): the game is not over after its (\d+) moves, so it has no result; game skipped$',
     r'\1: \2 手で終わっておらず、勝敗がありません。この対局は読み飛ばします'),
    (r'^(.+?): no games in the file$', r'\1: 対局がありません'),
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
