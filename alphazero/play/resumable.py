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


class KeptMatches:
    """The points of a measurement's matches kept in a file as each game ends (play_matches' `done`
    and `keep`), with the `settings` ({name: value}) and the openings they were played with. The
    same measurement run again after a stop reads them back and plays only the games not kept; a
    file kept for other settings is set aside with a line that says so. No path: nothing is kept."""

    def __init__(self, path, settings):
        self.path, self.settings = path, json.loads(json.dumps({**settings, 'kept': 'matches'}))  # as read back
        self.openings, self.done = None, {}
        if not path or not os.path.exists(path):
            return
        try:
            with open(path, encoding='utf-8') as f:
                content = json.load(f)
            if content['settings'] != self.settings:
                print(f'{path} was kept for other settings ({", ".join(settings)}): starting afresh')
                return
            self.done = {tuple(entry[:-1]): [None if p is None else float(p) for p in entry[-1]]
                         for entry in content['matches']}
            self.openings = [[int(move) for move in opening] for opening in content['openings']]
        except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
            raise UserError(f'{path} is not a readable measurement ({error}): remove it, then measure again') from None
        played = sum(p is not None for points in self.done.values() for p in points)
        print(f'going on from {path}: {played} games played already')

    def keep(self, done):
        if self.path:
            content = {'settings': self.settings, 'openings': [[int(move) for move in opening] for opening in self.openings],
                       'matches': [[*key, points] for key, points in done.items()]}
            write_json(self.path, content)
