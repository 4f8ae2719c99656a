"""Writing files safely: to a temporary name, renamed into place, never over an input; a full disk
is one line that names the file, and leaves what a kill at that moment leaves."""
import contextlib
import errno
import json
import os
import shutil

from alphazero.errors import UserError

FULL_DISK = (errno.ENOSPC, errno.EDQUOT)  # no space left, or over the user's quota


def no_space(path):
    """The one line for a write that found the disk full."""
    return UserError(f'no space left on the disk to write {path}: free some space, then run the same command '
                     'again (what was written before is intact)')


def check_space(path, need):
    """Refuse a write of about `need` bytes that the disk has no room for, before it starts (a library
    that writes a format of its own, HDF5, may crash when the disk fills under it)."""
    directory = os.path.dirname(path) or '.'
    while not os.path.exists(directory):
        directory = os.path.dirname(directory) or '.'
    if shutil.disk_usage(directory).free < need:
        raise no_space(path)


@contextlib.contextmanager
def atomic_output(path):
    """Yield a temporary path beside `path`; after the block, move it into place in one rename.

    An interrupted write leaves at worst a stray temporary file, never a half-written `path`.
    The temporary name keeps the extension because Keras picks the file format from it.
    """
    directory, name = os.path.split(path)
    stem, extension = os.path.splitext(name)
    if directory:
        os.makedirs(directory, exist_ok=True)
    temporary = os.path.join(directory, f'.{stem}.tmp{os.getpid()}{extension}')
    try:
        yield temporary
        with open(temporary, 'rb') as written:
            os.fsync(written.fileno())
        os.replace(temporary, path)
    except OSError as error:
        if error.errno in FULL_DISK or 'No space left' in str(error):
            raise no_space(path) from None
        raise
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def check_output(path, *inputs):
    """Refuse, before anything is written, an output path that is one of the inputs, a folder, or in
    a folder that cannot be written."""
    for given in inputs:
        if os.path.realpath(path) == os.path.realpath(given):
            raise UserError(f'{path} is an input of this command; writing it would destroy it: give another output path.')
    if os.path.isdir(path):
        raise UserError(f'{path} is a folder: give a file name for the output.')
    directory = os.path.dirname(path) or '.'
    existing = directory
    while not os.path.exists(existing):  # the folders still to be made go into the nearest existing one
        existing = os.path.dirname(existing) or '.'
    if not os.path.isdir(existing) or not os.access(existing, os.W_OK | os.X_OK):
        raise UserError(f'cannot write {path}: {existing} is not a folder this user can write to.')


def write_json(path, content, indent=None):
    """Write `content` as JSON (UTF-8, ending in a newline) through atomic_output."""
    with atomic_output(path) as temporary:
        with open(temporary, 'w', encoding='utf-8') as f:
            json.dump(content, f, indent=indent, ensure_ascii=False)
            f.write('\n')


def copy_file(source, destination):
    """Copy a file atomically (the book's update_best_player copies latest.h5 over best.h5)."""
    with open(source, 'rb') as f:
        content = f.read()
    with atomic_output(destination) as temporary:
        with open(temporary, 'wb') as f:
            f.write(content)
