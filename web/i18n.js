// The page's words in English and Japanese. The language is ?lang=ja|en in the address, else the one
// last chosen on the page (kept in localStorage), else the browser's.

export const LANGUAGES = { en: 'English', ja: '日本語' };

// The opponents of the measured ladders (alphazero/engines/players.py's opponent_name) in Japanese
function opponentJa(name) {
  const fixed = { 'random player': 'ランダム', 'alpha-beta (perfect)': 'αβ探索（完全読み）',
    'Monte Carlo tree search': 'モンテカルロ木探索', 'greedy player': '貪欲法' };
  return fixed[name] || name.replace(/^alpha-beta depth (\d+)$/, 'αβ探索 深さ$1').replace(/^GRhino level (\d)$/, 'GRhino レベル$1')
    .replace(/^Fairy-Stockfish depth (\d+)$/, 'Fairy-Stockfish 深さ$1')
    .replace(/^Fairy-Stockfish skill (-?\d+) depth (\d+)$/, 'Fairy-Stockfish スキル$1 深さ$2');
}

// Full shogi's handicaps in English (alphazero/game/shogi_handicaps.py's)
const HANDICAP_NAMES = { 香落ち: 'lance', 右香落ち: 'right lance', 角落ち: 'bishop', 飛車落ち: 'rook', 飛香落ち: 'rook and lance',
  二枚落ち: 'two pieces', 四枚落ち: 'four pieces', 六枚落ち: 'six pieces', 八枚落ち: 'eight pieces', 十枚落ち: 'ten pieces' };

const TEXT = {
  en: {
    gameLabel: 'Game', youPlay: 'You play', first: 'first', second: 'second', level: 'AI level', analysis: "Show the AI's analysis",
    flip: 'Flip the board', resign: 'Resign', handicap: 'Handicap', even: 'even game (平手)', shitate: 'shitate (下手, receives)', uwate: 'uwate (上手, gives, moves first)',
    handicapName: (name) => `${name} (${HANDICAP_NAMES[name]})`,
    handicapWorth: (name, elo) => `${name}: the AI about ${elo} Elo weaker`,
    handicapHint: (name) => `The handicap that suits your rating at this level: ${name}`,
    newGame: 'New game', takeBack: 'Take back', takeBackTitle: "take back your last move and the AI's answer",
    moves: 'Moves', language: 'Language',
    reviewTitle: 'Review', reviewStatus: 'Reviewing the game',
    reviewAt: (index, count, best) => `Position ${index} of ${count}: the AI's best move ${best}`,
    recordLabel: 'The game as text: copy it, or paste one and Load', load: 'Load', save: 'Save to a file', open: 'Open a file',
    notLegal: (word, plies) => `"${word}" is not a legal move after ${plies} moves`,
    overBefore: (word) => `the game is over before "${word}"`,
    randomDeal: 'Point-Othello deals its values at random: a game cannot be loaded again',
    note: 'The chart is the AI\'s estimate of your chances after each move (top: you win). The shading on the '
      + 'board is the search\'s share of visits per move of the side to move: what the AI plays, or what it '
      + 'would suggest to you. Keys: arrows move on the board, Enter or Space plays.',
    chartLabel: "the AI's estimate of your chances, move by move",
    loading: 'Loading the model…', yourMove: 'Your move', thinking: 'AI is thinking…', youWin: 'You win',
    youLose: 'You lose', draw: 'Draw', pass: 'You have no move and pass',
    you: 'You: ', ai: ' – AI: ', playsFirst: ' (first)', playsSecond: ' (second)',
    resultWon: 'Result: you won', resultLost: 'Result: you lost', resultDraw: 'Result: a draw',
    estimate: (you, ai) => `AI's estimate: you ${you}% – AI ${ai}%`,
    mistakesNote: 'Your moves that lost 20 points or more of your expected score, against the move the AI prefers there, '
      + 'are marked as bad moves, 10 or more as dubious moves (the chart\'s red and orange dots); click one to see its position.',
    mistake: (number, move, label, before, after, best) => `${number}. ${move}: ${label} (your chances ${before}% → ${after}%); the AI prefers ${best}`,
    badMove: 'bad move', dubiousMove: 'dubious move', noMistakes: 'No move of yours was marked.',
    solved: (margin) => `Solved to the end: ${margin > 0 ? `you win by ${margin}` : margin < 0 ? `you lose by ${-margin}` : 'a draw'}`,
    points: (n) => ` ${n} points`, toPlace: (next, later) => `To place now: ${next}; then ${later || 'nothing'}`,
    inHand: (side) => `${side} in hand: `, legalMove: 'legal move', empty: 'empty',
    levelOption: (level, near) => `Level ${level.number} – ${level.simulations ? `${level.simulations} simulations`
      : level.temperature ? 'policy, sampled' : 'policy'}${level.elo === null ? ' (not measured)'
      : ` (Elo ${level.elo}, ${Math.abs(level.near_difference) <= near ? `about ${level.near}`
        : `${Math.abs(level.near_difference)} ${level.near_difference > 0 ? 'above' : 'below'} ${level.near}`})`}`,
    levelTitle: 'Elo measured in games against the random player (Elo 0), the other levels and established programs; '
      + 'it is not a human rating.',
    settaiTitle: 'The AI steers towards a close game but never gives away a game it is winning (in Othello it also aims '
      + 'for a narrow final margin).',
    settai: 'Settai (close-game) mode: the AI aims for a close game', adaptive: 'Adapt the level to me', resetRating: 'Reset',
    rating: (rating, games) => `Your rating: ${rating} (${games} games)`, notMeasured: 'Levels not measured for this model',
    sides: { black: 'black', white: 'white', red: 'red', yellow: 'yellow', o: 'o', x: 'x', '▲': '▲', '▽': '▽', '△': '△' },
    promoteQuestion: 'Promote?', promote: 'Promote', stay: "Don't promote", human: 'You',
    settaiSims: (sims, moves) => `(each of the ${moves} moves searched with ${sims} simulations, to answer in seconds)`,
    failed: (m) => `The model failed: ${m}`, cannotUse: (game, m) => `Cannot use the model for ${game}: ${m}`,
    notStarted: (m) => `The page failed to start: ${m}`, unknownGame: (game) => `Unknown game ${game}.`,
  },
  ja: {
    gameLabel: 'ゲーム', youPlay: 'あなたは', first: '先手', second: '後手', level: 'AI の強さ', analysis: 'AI の読みを表示',
    flip: '盤を反転', resign: '投了', handicap: '手合割', even: '平手', shitate: '下手', uwate: '上手（先に指す）', handicapName: (name) => name,
    handicapWorth: (name, elo) => `${name}（AI が約 ${elo} Elo 弱くなる）`,
    handicapHint: (name) => `このレベルであなたのレーティングに合う手合割: ${name}`,
    newGame: '新しい対局', takeBack: '待った', takeBackTitle: 'あなたの最後の手と AI の応手を取り消します',
    moves: '棋譜', language: '言語',
    reviewTitle: '振り返り', reviewStatus: '対局を振り返っています',
    reviewAt: (index, count, best) => `${count} 手中 ${index} 手目の局面: AI の最善手 ${best}`,
    recordLabel: '棋譜の文字列: コピーするか、貼り付けて「読み込む」', load: '読み込む', save: 'ファイルに保存', open: 'ファイルを開く',
    notLegal: (word, plies) => `${plies} 手目のあとの「${word}」は指せる手ではありません`,
    overBefore: (word) => `「${word}」の前に対局が終わっています`,
    randomDeal: '点数制リバーシは値をランダムに配るので、対局を読み込み直すことはできません',
    note: 'グラフは各手のあとの AI によるあなたの勝ちの見込みです（上ほどあなたが有利）。盤上の色は手番側の各手に'
      + '探索が割いた訪問の割合で、AI が指す手、またはあなたへの助言です。キー操作: 矢印で移動、Enter か Space で着手。',
    chartLabel: 'AI が見積もるあなたの勝ちの見込み（手ごと）',
    loading: 'モデルを読み込んでいます…', yourMove: 'あなたの番です', thinking: 'AI が考えています…',
    youWin: 'あなたの勝ち', youLose: 'あなたの負け', draw: '引き分け', pass: '打てる所がないのでパスします',
    you: 'あなた: ', ai: ' – AI: ', playsFirst: '（先手）', playsSecond: '（後手）',
    resultWon: '結果: あなたの勝ち', resultLost: '結果: あなたの負け', resultDraw: '結果: 引き分け',
    estimate: (you, ai) => `AI の見込み: あなた ${you}% – AI ${ai}%`,
    mistakesNote: 'あなたの手のうち、AI の推奨手と比べて見込み（期待得点）を 20 ポイント以上失った手を悪手、10 ポイント以上を'
      + '疑問手としています（グラフの赤と橙の点）。クリックするとその局面を表示します。',
    mistake: (number, move, label, before, after, best) => `${number} 手目 ${move}: ${label}（見込み ${before}% → ${after}%）。AI の推奨は ${best}`,
    badMove: '悪手', dubiousMove: '疑問手', noMistakes: '印のついた手はありません。',
    solved: (margin) => `読み切り: ${margin > 0 ? `あなたの ${margin} 石差勝ち` : margin < 0 ? `あなたの ${-margin} 石差負け` : '引き分け'}`,
    points: (n) => ` ${n} 点`, toPlace: (next, later) => `いま置く値: ${next}、このあと: ${later || 'なし'}`,
    inHand: (side) => `${side}の持ち駒: `, legalMove: '打てる', empty: '空き',
    levelOption: (level, near) => `レベル ${level.number} – ${level.simulations ? `シミュレーション回数 ${level.simulations}`
      : level.temperature ? 'ポリシー出力のみ・確率的' : 'ポリシー出力のみ'}${level.elo === null ? '（未測定）'
      : `（Elo ${level.elo}、${Math.abs(level.near_difference) <= near ? `${opponentJa(level.near)} くらい`
        : `${opponentJa(level.near)} より ${Math.abs(level.near_difference)} ${level.near_difference > 0 ? '高い' : '低い'}`}）`}`,
    levelTitle: 'Elo はランダムなプレイヤーを 0 として、ほかのレベルや既存のプログラムとの対戦から測った値です。'
      + '人間のレーティングや段級位（将棋倶楽部24、将棋ウォーズなど）とは別の尺度です。',
    settaiTitle: 'AI は接戦になるように指しますが、勝っている対局をわざと負けることはしません（オセロでは最終の石差も小さくなるようにします）。',
    settai: '接待（接戦）モード: AI が接戦をめざします', adaptive: '強さを自動で合わせる', resetRating: 'リセット',
    rating: (rating, games) => `あなたのレーティング: ${rating}（${games} 局）`, notMeasured: 'このモデルのレベルは未測定です',
    sides: { black: '黒', white: '白', red: '赤', yellow: '黄', o: 'o', x: 'x', '▲': '▲', '▽': '▽', '△': '△' },
    promoteQuestion: '成りますか？', promote: '成る', stay: '成らない', human: 'あなた',
    settaiSims: (sims, moves) => `（数秒で指せるよう、${moves} 通りの手をそれぞれシミュレーション回数 ${sims} で探索）`,
    failed: (m) => `モデルの実行に失敗しました: ${m}`, cannotUse: (game, m) => `${game} にこのモデルは使えません: ${m}`,
    notStarted: (m) => `ページを開始できませんでした: ${m}`, unknownGame: (game) => `不明なゲーム ${game} です。`,
  },
};

// The language to start with
export function startingLanguage() {
  const asked = new URLSearchParams(location.search).get('lang');
  const kept = localStorage.getItem('lang');
  const browser = (navigator.languages || [navigator.language]).some((l) => /^ja\b/i.test(l)) ? 'ja' : 'en';
  return [asked, kept, browser].find((l) => l in LANGUAGES);
}

export const words = (language) => TEXT[language];
