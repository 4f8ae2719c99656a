"""The documentation's links lead somewhere: every relative link of the READMEs and docs/ names
a file of the repository, and every #anchor a heading of the page it points to."""
import glob
import os
import re
import sys

import pytest

from conftest import REPO

PAGES = ['README.md', 'README.ja.md',
         *sorted(os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, 'docs', '**', '*.md'), recursive=True))]
LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')


def anchors(path):
    """GitHub's anchors of a Markdown page: each heading lower-cased, punctuation dropped, spaces as -."""
    with open(path, encoding='utf-8') as f:
        headings = [line.lstrip('#').strip() for line in f if line.startswith('#')]
    return {re.sub(r'[^\w\- ]', '', heading.lower()).replace(' ', '-') for heading in headings}


@pytest.mark.parametrize('page', PAGES)
def test_every_relative_link_resolves(page):
    with open(os.path.join(REPO, page), encoding='utf-8') as f:
        text = re.sub(r'```.*?```', '', f.read(), flags=re.S)  # code blocks hold no links
    broken = []
    for target in LINK.findall(text):
        if re.match(r'[a-z]+:', target):
            continue  # an address on the web
        path, _, anchor = target.partition('#')
        file = os.path.normpath(os.path.join(REPO, os.path.dirname(page), path)) if path else os.path.join(REPO, page)
        if not os.path.exists(file) or (anchor and file.endswith('.md') and anchor not in anchors(file)):
            broken.append(target)
    assert not broken, f'{page}: links that lead nowhere: {broken}'


# ----- the commands of the documentation -----
BLOCK = re.compile(r'```(sh|python)\n(.*?)```', re.S)
COMMAND = re.compile(r'(?:\.venv/bin/python|python3?|bash)\s+([\w/.-]+\.(?:py|sh))([^|;&#\n]*)')
SCRIPT_OF = {'run.sh': 'train_cycle.py'}  # run.sh passes its flags on to train_cycle.py


def blocks(page, language):
    with open(os.path.join(REPO, page), encoding='utf-8') as f:
        return [body for kind, body in BLOCK.findall(f.read()) if kind == language]


def flags_of(script):
    """The flags a script's --help lists (its own parse_args in-process when it has one)."""
    import contextlib
    import importlib
    import io
    import subprocess
    import sys
    name = os.path.splitext(script)[0]
    if '/' not in script and hasattr(importlib.import_module(name), 'parse_args'):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            importlib.import_module(name).parse_args(['--help'])
        text = out.getvalue()
    else:
        text = subprocess.run([sys.executable, os.path.join(REPO, script), '--help'], capture_output=True, text=True,
                              timeout=120, cwd=REPO).stdout
    return set(re.findall(r'--[a-z][a-z-]*', text))


@pytest.mark.parametrize('page', PAGES)
def test_every_command_of_the_docs_names_a_script_and_flags_it_has(page):
    wrong = []
    for body in blocks(page, 'sh'):
        for script, arguments in COMMAND.findall(body.replace('\\\n', ' ')):
            if script == 'test.sh' or script.startswith('.ci/'):
                continue  # pytest's arguments
            script = SCRIPT_OF.get(script, script)
            if not os.path.exists(os.path.join(REPO, script)):
                wrong.append(f'{script} does not exist')
                continue
            if script.endswith('.sh'):
                continue  # setup.sh: no flags, only variables (WITH_RAY=1, WITH_GPU=1, ...)
            given = set(re.findall(r'(?<!\S)--[a-z][a-z-]*', arguments))
            wrong += [f'{script} has no {flag}' for flag in sorted(given - flags_of(script))] if given else []
    assert not wrong, f'{page}: {wrong}'


@pytest.mark.parametrize('page', PAGES)
def test_every_python_block_of_the_docs_is_python(page):
    for body in blocks(page, 'python'):
        compile(body, page, 'exec')


@pytest.mark.slow
def test_the_book_api_example_runs_as_written(tiny_best):
    from forked import run_python
    example = next(body for body in blocks('docs/book.md', 'python') if 'from game import State' in body)
    with open('example.py', 'w', encoding='utf-8') as f:
        f.write(example)
    result = run_python(['example.py'], '.', dict(os.environ, PYTHONPATH=REPO), timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert int(result.stdout.split()[-1]) in range(9)


# ----- tables made from the data they describe -----
def test_the_tables_of_shipped_models_are_those_their_model_json_files_make():
    import runpy
    tables = runpy.run_path(os.path.join(REPO, 'docs', 'make_tables.py'))
    # Every page with a made table (docs/ja/strength.md's copies too) is one that the script makes again
    marked = set()
    for page in PAGES:
        with open(os.path.join(REPO, page), encoding='utf-8') as f:
            if '<!-- the table below is made by docs/make_tables.py' in f.read():
                marked.add(page)
    assert 'docs/ja/strength.md' in marked and marked <= set(tables['PAGES']), marked - set(tables['PAGES'])
    for page in tables['PAGES']:
        with open(os.path.join(REPO, page), encoding='utf-8') as f:
            assert f.read() == tables['regenerated'](page), f'{page}: run python docs/make_tables.py'
    assert set(tables['shipped']()) == set(os.listdir(os.path.join(REPO, 'pretrained')))


# ----- the Japanese pages -----
# Each page of the Japanese reader's path and its English twin; every page of docs/ja/ is one of them,
# or the glossary
TWINS = {'README.md': 'README.ja.md', 'docs/getting-started.md': 'docs/ja/getting-started.md',
         'docs/book.md': 'docs/ja/book.md', 'docs/playing.md': 'docs/ja/playing.md', 'docs/shogi.md': 'docs/ja/shogi.md',
         'docs/adding-a-game.md': 'docs/ja/adding-a-game.md', 'docs/training.md': 'docs/ja/training.md',
         'docs/strength.md': 'docs/ja/strength.md', 'docs/browser.md': 'docs/ja/browser.md',
         'docs/records.md': 'docs/ja/records.md', 'docs/gtp.md': 'docs/ja/gtp.md'}
JAPANESE = ['README.ja.md', *sorted(os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, 'docs', 'ja', '*.md')))]


def links_of(page):
    """The files a page links to, as paths from the repository's root."""
    with open(os.path.join(REPO, page), encoding='utf-8') as f:
        targets = LINK.findall(re.sub(r'```.*?```', '', f.read(), flags=re.S))
    return {os.path.normpath(os.path.join(os.path.dirname(page), t.partition('#')[0])) for t in targets
            if t.partition('#')[0] and not re.match(r'[a-z]+:', t)}


def test_each_japanese_page_and_its_english_twin_link_each_other():
    for english, japanese in TWINS.items():
        assert japanese in links_of(english), f'{english} does not link to its Japanese twin {japanese}'
        assert english in links_of(japanese), f'{japanese} does not link to its English twin {english}'
    assert set(JAPANESE) - set(TWINS.values()) == {'docs/ja/glossary.md'}


def test_a_japanese_page_marks_each_link_to_an_english_page():
    """A Japanese page's link to a page in English says so, right after it: [...](../shogi.md)（英語）
    (not the `English:` link to its own twin at the top)."""
    unmarked = []
    for page in JAPANESE:
        with open(os.path.join(REPO, page), encoding='utf-8') as f:
            text = re.sub(r'```.*?```', '', f.read(), flags=re.S)
        for found in re.finditer(r'\[[^\]]*\]\(([^)\s]+)\)', text):
            target = os.path.normpath(os.path.join(os.path.dirname(page), found.group(1).partition('#')[0]))
            english = target.endswith('.md') and target not in JAPANESE
            if english and not text[:found.start()].endswith('English: ') and not text[found.end():].startswith('（英語）'):
                unmarked.append(f'{page}: {found.group(0)}')
    assert not unmarked, unmarked


def japanese_text():
    """{where: text} of every Japanese text a reader or player meets: the pages (no code blocks), the
    players' words and the page's."""
    texts = {}
    for page in JAPANESE:
        with open(os.path.join(REPO, page), encoding='utf-8') as f:
            texts[page] = re.sub(r'```.*?```', '', f.read(), flags=re.S)
    from alphazero.cli.words import WORDS
    texts['alphazero/cli/words.py'] = ' '.join(v for v in WORDS['ja'].values() if isinstance(v, str))
    with open(os.path.join(REPO, 'web', 'i18n.js'), encoding='utf-8') as f:
        texts['web/i18n.js'] = f.read().split('\n  ja: {')[1]
    return texts


def test_japanese_text_uses_the_books_words_and_results_as_wins_losses_draws():
    """The book's words (セルフプレイ, ポリシー出力, シミュレーション回数, ...), not the plain ones it does not
    use, except in brackets beside them the first time; results as 39勝1敗 (勝-敗-分), never 39-0-1,
    which a Japanese reader reads in that order."""
    beside = ('セルフプレイ（自己対戦）', 'ポリシー出力（方策）', 'バリュー出力（価値）')
    wrong = []
    for where, text in japanese_text().items():
        for allowed in beside:
            text = text.replace(allowed, '')
        wrong += [f'{where}: {found}' for found in re.findall(r'自己対戦|方策|探索 ?\d+ ?回|価値ネットワーク', text)]
        wrong += [f'{where}: {found}' for found in re.findall(r'(?<![\d.-])\d{1,3}-\d{1,3}-\d{1,3}(?![\d-])', text)]
    assert not wrong, wrong


def test_the_pictures_of_the_page_are_made_by_the_script():
    """Every picture of the page that a page of the docs shows (docs/web_*.png) is one that
    docs/make_screenshots.py makes, in English and Japanese, and no other is kept."""
    sys.path.insert(0, os.path.join(REPO, 'docs'))
    from make_screenshots import LANGUAGES, SHOTS
    made = {f'{name}{suffix}.png' for name in SHOTS for suffix in LANGUAGES.values()}
    shown = set()
    for page in PAGES:
        with open(os.path.join(REPO, page), encoding='utf-8') as f:
            shown |= {os.path.basename(target) for target in LINK.findall(f.read()) if re.search(r'(^|/)web_[^/]*\.png$', target)}
    kept = {os.path.basename(p) for p in glob.glob(os.path.join(REPO, 'docs', 'web_*.png'))}
    assert shown <= made and kept == made, (shown - made, kept ^ made)
