"""The Colab notebooks (notebooks/alphazero_colab_ja.ipynb and its English twin) follow the book's
chapter 6 pipeline: they run headless, here, outside Colab, with their parameters cell replaced by
tiny settings, in a temporary working folder, on this interpreter's kernel."""
import json
import os
import re
import sys

import pytest

from conftest import REPO

NOTEBOOKS = {'ja': os.path.join(REPO, 'notebooks', 'alphazero_colab_ja.ipynb'),
             'en': os.path.join(REPO, 'notebooks', 'alphazero_colab_en.ipynb')}
# The book's values, which the parameters cell holds (the book's DN_FILTERS, DN_RESIDUAL_NUM, SP_GAME_COUNT,
# PV_EVALUATE_COUNT, RN_EPOCHS, EN_GAME_COUNT, EP_GAME_COUNT and train_cycle.py's TC_CYCLES: the scripts' defaults)
BOOK = {'GAME': 'tictactoe', 'FILTERS': 128, 'BLOCKS': 16, 'SELF_PLAY_GAMES': 500, 'SIMS': 50, 'EPOCHS': 100,
        'EVAL_GAMES': 10, 'BEST_GAMES': 10, 'CYCLES': 10}
TINY = {'FILTERS': 8, 'BLOCKS': 1, 'SELF_PLAY_GAMES': 4, 'SIMS': 4, 'EPOCHS': 1, 'EVAL_GAMES': 2, 'BEST_GAMES': 2,
        'CYCLES': 1, 'PLAY_SIMS': 8}
CELL_TIMEOUT = 240  # seconds, for each cell


def read(lang):
    import nbformat
    return nbformat.read(NOTEBOOKS[lang], as_version=4)


def parameters_index(notebook):
    tagged = [i for i, cell in enumerate(notebook.cells) if 'parameters' in cell.metadata.get('tags', [])]
    assert len(tagged) == 1, 'one cell tagged "parameters"'
    return tagged[0]


@pytest.mark.parametrize('lang', sorted(NOTEBOOKS))
def test_the_parameters_cell_holds_the_books_values_and_no_address(lang):
    import nbformat
    notebook = read(lang)
    nbformat.validate(notebook)
    values = {}
    exec(notebook.cells[parameters_index(notebook)].source, values)
    assert {name: values[name] for name in BOOK} == BOOK
    assert values['REPO_URL'] == '' and values['WORK_DIR'] == '' and values['PLAY_SIMS'] is None
    assert set(TINY) <= set(values)


def test_the_two_notebooks_are_twins_and_the_japanese_one_speaks_the_books_words():
    ja, en = read('ja'), read('en')
    assert [cell.cell_type for cell in ja.cells] == [cell.cell_type for cell in en.cells]
    # The same commands in the same places: each code cell's magics and imports
    for one, other in zip(ja.cells, en.cells):
        if one.cell_type == 'code':
            def commands(cell):
                return [line for line in cell.source.splitlines() if line.startswith(('%run', 'from ', 'import '))]
            assert commands(one) == commands(other)
    text = '\n'.join(cell.source for cell in ja.cells if cell.cell_type == 'markdown')
    headings = '\n'.join(line for line in text.splitlines() if line.startswith('#'))
    for words in ('デュアルネットワーク', 'セルフプレイ部', 'パラメータ更新部', '新パラメータ評価部', 'ベストプレイヤーの評価',
                  '学習サイクル', '人とAIの対戦'):
        assert words in headings, words
    for words in ('ポリシー出力', 'バリュー出力', 'シミュレーション回数'):
        assert words in text, words
    # as tests/quality/test_docs.py asks of the Japanese pages: the plain words only beside the book's
    for allowed in ('セルフプレイ（自己対戦）', 'ポリシー出力（方策）', 'バリュー出力（価値）'):
        text = text.replace(allowed, '')
    assert not re.findall(r'自己対戦|方策|価値ネットワーク', text)


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    """A kernel spec of this interpreter (the .venv's Python) in a folder of its own, and Jupyter's and
    IPython's own files in the temporary folder; returns the kernel's name."""
    kernels = tmp_path / 'jupyter' / 'kernels' / 'alphazero-test'
    kernels.mkdir(parents=True)
    (kernels / 'kernel.json').write_text(json.dumps({
        'argv': [sys.executable, '-m', 'ipykernel_launcher', '-f', '{connection_file}'],
        'display_name': 'alphazero test', 'language': 'python'}))
    monkeypatch.setenv('JUPYTER_PATH', str(tmp_path / 'jupyter'))
    monkeypatch.setenv('JUPYTER_RUNTIME_DIR', str(tmp_path / 'runtime'))
    monkeypatch.setenv('IPYTHONDIR', str(tmp_path / 'ipython'))
    monkeypatch.setenv('MPLBACKEND', 'agg')
    return 'alphazero-test'


def outputs_of(cell):
    """A cell's outputs: (its text, the MIME types of its pictures, its errors)."""
    text, pictures, errors = [], [], []
    for output in cell.get('outputs', []):
        if output.output_type == 'stream':
            text.append(output.text)
        elif output.output_type == 'error':
            errors.append(f'{output.ename}: {output.evalue}')
        else:
            text.append(output.get('data', {}).get('text/plain', ''))
            pictures += [kind for kind in output.get('data', {}) if kind.startswith('image/')]
    return ''.join(text), pictures, errors


@pytest.mark.slow
@pytest.mark.parametrize('lang', sorted(NOTEBOOKS))
def test_the_notebook_runs_the_books_pipeline_headless(lang, tmp_path, kernel):
    from nbclient import NotebookClient
    from nbformat.v4 import new_code_cell
    from alphazero.cli.words import WORDS
    notebook = read(lang)
    work = tmp_path / 'work'
    # papermill's way: the new values in a cell right after the parameters cell
    tiny = {**TINY, 'REPO_DIR': REPO, 'WORK_DIR': str(work)}
    injected = new_code_cell('\n'.join(f'{name} = {value!r}' for name, value in tiny.items())
                             + '\nimport sys\nprint("kernel:", sys.executable)')
    injected.metadata['tags'] = ['injected-parameters']
    at = parameters_index(notebook) + 1
    notebook.cells.insert(at, injected)
    NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name=kernel,
                   resources={'metadata': {'path': str(tmp_path)}}).execute()

    shown = [outputs_of(cell) for cell in notebook.cells if cell.cell_type == 'code']
    # %run shows a script's failure (an exit code, a traceback) as an error output, not as a failed cell
    assert not [error for _, _, errors in shown for error in errors]
    text = '\n'.join(out for out, _, _ in shown)
    assert f'kernel: {sys.executable}' in text  # this interpreter's kernel
    # each stage's script ran, in the working folder
    for said in ('created model/best.h5', 'wrote data/', 'wrote model/latest.h5', 'AveragePoint', 'VS_Random',
                 'VS_AlphaBeta', 'VS_MCTS', 'Train 0 (cycle 1 of 1)', 'wrote model/chart_losses.png',
                 'wrote model/best.onnx', 'not on Colab' if lang == 'en' else 'Colab の外'):
        assert said in text, said
    for name in ('best.h5', 'latest.h5', 'best.onnx', 'metrics.jsonl', 'chart_losses.png'):
        assert (work / 'model' / name).is_file(), name
    # the cycle ran at the notebook's sizes (a name that a script also defines would take the script's value)
    cycle = json.loads((work / 'model' / 'metrics.jsonl').read_text().splitlines()[-1])
    assert cycle['cycle'] == 1 and cycle['games'] == TINY['SELF_PLAY_GAMES'] and len(cycle['loss']) == TINY['EPOCHS']
    assert any(pictures for _, pictures, _ in shown), 'the charts are shown'
    # the AI answered in both games: tic-tac-toe, then Connect Four on the shipped model
    said = WORDS[lang]
    replies = said['ai_plays'].split('{')[0]
    play, other = shown[-3][0], shown[-1][0]
    assert replies in play and said['ask'].split('（')[0].split('(')[0] in play
    assert replies in other and os.path.join('pretrained', 'connect4') in other
    assert not (tmp_path / 'runs').exists() and not (work / 'runs').exists()
