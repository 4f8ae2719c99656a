"""The documentation's links lead somewhere: every relative link of the READMEs and docs/ names
a file of the repository, and every #anchor a heading of the page it points to."""
import glob
import os
import re

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
