"""The project installs as a package (pip install .) and its commands work from outside the checkout:
the shipped model comes from the installed package, not from the clone."""
import os
import site
import subprocess
import sys
import tarfile
import tomllib

import pytest

from conftest import REPO


@pytest.mark.slow
def test_the_package_installs_into_an_empty_venv_and_plays_from_anywhere(tmp_path):
    # The checkout's files as git sees them, copied: a build writes build/ and *.egg-info beside its source
    source = tmp_path / 'source'
    listed = subprocess.run(['git', 'ls-files', '-co', '--exclude-standard', '-z'], cwd=REPO, capture_output=True,
                            check=True).stdout.decode().split('\0')
    with tarfile.open(tmp_path / 'source.tar', 'w') as archive:
        for name in filter(None, listed):
            if os.path.exists(os.path.join(REPO, name)):
                archive.add(os.path.join(REPO, name), name)
    with tarfile.open(tmp_path / 'source.tar') as archive:
        archive.extractall(source, filter='data')

    # An empty venv that sees the dependencies already installed (no download of TensorFlow again)
    venv = tmp_path / 'venv'
    subprocess.run([sys.executable, '-m', 'venv', '--without-pip', str(venv)], check=True)
    python = venv / 'bin' / 'python'
    packages = subprocess.run([str(python), '-c', 'import site; print(site.getsitepackages()[0])'], capture_output=True,
                              text=True, check=True).stdout.strip()
    with open(os.path.join(packages, 'dependencies.pth'), 'w') as f:
        f.write('\n'.join(site.getsitepackages()) + '\n')
    installed = subprocess.run([sys.executable, '-m', 'pip', '--python', str(python), 'install', '--quiet', '--no-deps',
                                '--no-build-isolation', str(source)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr

    with open(os.path.join(REPO, 'pyproject.toml'), 'rb') as f:
        commands = tomllib.load(f)['project']['scripts']
    assert all((venv / 'bin' / name).exists() for name in commands)

    # A whole tic-tac-toe game in another folder, against the shipped model inside the package
    elsewhere = tmp_path / 'elsewhere'
    elsewhere.mkdir()
    environment = {key: value for key, value in os.environ.items() if key != 'PYTHONPATH'}
    played = subprocess.run([str(venv / 'bin' / 'alphazero-play'), '--game', 'tictactoe', '--text', '--lang', 'en',
                             '--save-to', ''], cwd=elsewhere, env=environment, capture_output=True, text=True,
                            input='\n'.join(['b2', 'a1', 'c1', 'a3', 'c3', 'b1', 'b3', 'a2', 'c2']) + '\n', timeout=300)
    assert played.returncode == 0, played.stderr
    shipped = os.path.join(packages, 'pretrained', 'tictactoe')
    assert f'playing the shipped {shipped}' in played.stderr
    assert played.stdout.rstrip().splitlines()[-1] in ('You win', 'You lose', 'Draw')
    assert not os.path.exists(elsewhere / 'model')
