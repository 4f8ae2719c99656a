"""The pictures of the page in the docs, in English and Japanese, made from the page and the shipped
models as they are now: play_web.py serves the page (from an empty folder, so that every game plays
its shipped model) and headless Chromium takes each picture (web/test/screenshot.mjs). Run
`python docs/make_screenshots.py` after the page or a shipped model changes (`--only NAME` makes one,
`--out FOLDER` writes elsewhere); tests/quality/test_docs.py checks that every picture of the page in
the docs is one made here."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (game, size, a game to load as text, step back into the review); each is made as
# docs/NAME.png in English and docs/NAME_ja.png in Japanese
SHOTS = {
    'web_tictactoe': ('tictactoe', '900x720', None, False),
    'web_othello8': ('othello8', '900x720', 'f5d6c3d3c4f4', False),
    'web_levels': ('connect4', '900x720', 'dd', False),
    'web_review': ('tictactoe', '900x720', 'a1b1a2b2a3', True),
    'web_pointothello': ('pointothello', '900x720', None, False),
    'web_shogi9': ('shogi9', '900x860', '7g7f 3c3d 8h2b+ 3a2b B*4e', False),
}
LANGUAGES = {'en': '', 'ja': '_ja'}


def serve(folder, *args):
    """play_web.py (with `args`) on a free port, run in `folder`; returns the process and the page's
    address (tests/interfaces/test_web.py serves its pages so too). RuntimeError when it does not start."""
    process = subprocess.Popen([sys.executable, os.path.join(ROOT, 'play_web.py'), '--port', '0', *args], cwd=folder,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    address = re.search(r'http://127\.0\.0\.1:\d+/', line)
    if not address:
        process.kill()
        raise RuntimeError(f'play_web.py did not start: no address in {line!r}: {process.stderr.read().strip()}')
    return process, address.group(0)


def take(address, name, lang, out):
    game, size, record, review = SHOTS[name]
    path = os.path.join(out, f'{name}{LANGUAGES[lang]}.png')
    command = [shutil.which('node') or 'node', os.path.join(ROOT, 'web', 'test', 'screenshot.mjs'),
               f'{address}?lang={lang}#{game}', path, size, record or '', 'review' if review else '']
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    if result.returncode:
        sys.exit(f'error: the picture {path} failed: {result.stderr.strip()[-500:]}')
    print(f'wrote {os.path.relpath(path, ROOT)}')


def has_japanese_font():
    """Whether Chromium can draw Japanese (else every kana and kanji is an empty box)."""
    fonts = subprocess.run(['fc-list', ':lang=ja'], capture_output=True, text=True) if shutil.which('fc-list') else None
    return bool(fonts and fonts.stdout.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--only', choices=sorted(SHOTS), action='append', help='make only this picture (repeatable)')
    parser.add_argument('--out', default=os.path.join(ROOT, 'docs'), help='the folder to write to (default: docs/)')
    args = parser.parse_args()
    if not has_japanese_font():
        sys.exit('error: no Japanese font, so the Japanese pictures would show empty boxes: install one '
                 '(sudo apt-get install fonts-noto-cjk)')
    with tempfile.TemporaryDirectory() as folder:
        try:
            process, address = serve(folder)
        except RuntimeError as error:
            sys.exit(f'error: {error}')
        try:
            for name in args.only or SHOTS:
                for lang in LANGUAGES:
                    take(address, name, lang, args.out)
        finally:
            process.terminate()
            process.wait(timeout=30)


if __name__ == '__main__':
    main()
