"""Results kept as they come, so that a long measurement killed half-way goes on where it stopped."""
import json
import os

from alphazero.errors import UserError
from alphazero.files import write_json


def held_results(path, settings, entries, kind):
    """What a benchmark's results file holds (None when there is no file at `path`), refused in one
    line when it is not such a file, or when it was measured with other `settings` (a dict of its
    keys), so that the figures of different settings never mix. `entries`: the key of its results,
    which must be a `kind` (list or dict)."""
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            content = json.load(f)
        held = {key: content[key] for key in settings}
        if not isinstance(content[entries], kind):
            raise TypeError(f'its "{entries}" is not a {kind.__name__}')
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UserError(f'{path} is not a results file of this benchmark ({error}): give another --out') from None
    different = next((key for key in settings if held[key] != settings[key]), None)
    if different is not None:
        raise UserError(f'{path} holds results with {different} {held[different]!r}, not {settings[different]!r}: '
                        'give another --out to measure other settings')
    return content


def read_kept(path, settings, field, parse):
    """(openings, parse(items)) that a stopped measurement kept in `path` under `field`, when it was
    made with the same `settings`; else (None, parse([])). The caller says how far it had got."""
    if not path or not os.path.exists(path):
        return None, parse([])
    try:
        with open(path, encoding='utf-8') as f:
            content = json.load(f)
        if content['settings'] != settings:
            print(f'{path} was kept for other settings ({", ".join(settings)}): starting afresh')
            return None, parse([])
        played = parse(content[field])
        openings = [[int(move) for move in opening] for opening in content['openings']]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UserError(f'{path} is not a readable measurement ({error}): remove it, then measure again') from None
    return openings, played


def write_kept(path, settings, openings, field, items):
    """Keep a measurement's settings, openings and what it has played (`items` under `field`)."""
    content = {'settings': settings, 'openings': [[int(move) for move in opening] for opening in openings],
               field: items}
    write_json(path, content)
