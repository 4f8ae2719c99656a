"""Scripts run as processes without starting TensorFlow each time.

A script run as `python script.py` spends 4 to 6 seconds importing TensorFlow and Keras before its
first line of work; the suite runs scripts some hundred times. A fork server (the zygote) is started
once per test worker: it imports TensorFlow and Keras, runs nothing, and forks a child for each
script, which sets its arguments, folder, environment and standard streams and runs the script as
`python script.py` would (its own process: exit codes, signals, SIGKILL and files behave the same).
Settings that TensorFlow reads when it is imported (KERAS_BACKEND, TF_*, CUDA_*, ...) and a
sitecustomize module on PYTHONPATH (run as an interpreter starts) cannot act in a child, so a run that
sets them gets a fresh interpreter, as does one asked for with fresh=True (a test of what a process
prints while it starts).
"""
import json
import os
import select
import signal
import subprocess
import sys
import tempfile

# What TensorFlow, Keras and their libraries read when they are imported
READ_AT_IMPORT = ('KERAS_', 'TF_', 'CUDA', 'XLA_', 'JAX_', 'OMP_', 'MKL_', 'PYTHONHASHSEED', 'LD_')

ZYGOTE = r'''
import atexit, io, json, os, runpy, sys, traceback
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
import tensorflow, keras  # noqa: F401 (imported once, before any fork)
requests, replies = os.fdopen(0, 'r'), os.fdopen(int(sys.argv[1]), 'w')
base_path = [p for p in sys.path[1:] if p not in os.environ.get('PYTHONPATH', '').split(os.pathsep)]
for line in requests:
    run = json.loads(line)
    pid = os.fork()
    if pid:
        replies.write(f'{pid}\n')
        replies.flush()
        _, status = os.waitpid(pid, 0)
        replies.write(f'{os.waitstatus_to_exitcode(status)}\n')
        replies.flush()
        continue
    code = 0
    try:
        os.setpgid(0, 0)
        requests.close(), replies.close()
        for fd, name in enumerate(('stdin', 'stdout', 'stderr')):
            opened = os.open(run[name], os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if opened != fd:
                os.dup2(opened, fd)
                os.close(opened)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, 'r', closefd=False), encoding='utf-8')
        sys.stdout = io.TextIOWrapper(io.FileIO(1, 'w', closefd=False), encoding='utf-8')
        sys.stderr = io.TextIOWrapper(io.FileIO(2, 'w', closefd=False), encoding='utf-8', write_through=True)
        os.environ.clear()
        os.environ.update(run['env'])
        os.chdir(run['cwd'])
        extra = [p for p in run['env'].get('PYTHONPATH', '').split(os.pathsep) if p]
        sys.path[:] = [os.path.dirname(run['argv'][0])] + extra + base_path
        sys.argv = run['argv']
        runpy.run_path(run['argv'][0], run_name='__main__')
    except SystemExit as exit:  # as the interpreter ends: sys.exit(2), sys.exit(), sys.exit('message')
        if isinstance(exit.code, int) or exit.code is None:
            code = exit.code or 0
        else:
            print(exit.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        try:
            atexit._run_exitfuncs()
            sys.stdout.flush(), sys.stderr.flush()
        finally:
            os._exit(code)
'''


class Zygote:
    """The fork server of this test worker (started on first use): it answers each run with the child's
    process id, then with its exit code."""
    process = None

    @classmethod
    def reply(cls, timeout=None):
        """The next line the zygote writes, or None after `timeout` seconds."""
        while b'\n' not in cls.unread:
            if not select.select([cls.replies], [], [], timeout)[0]:
                return None
            chunk = os.read(cls.replies, 4096)
            if not chunk:
                raise RuntimeError('the fork server of the tests ended')
            cls.unread += chunk
        line, cls.unread = cls.unread.split(b'\n', 1)
        return int(line)

    @classmethod
    def run(cls, argv, cwd, env, input, timeout):
        if cls.process is None or cls.process.poll() is not None:
            cls.replies, writing = os.pipe()
            cls.process = subprocess.Popen([sys.executable, '-c', ZYGOTE, str(writing)], stdin=subprocess.PIPE,
                                           text=True, pass_fds=(writing,), stdout=subprocess.DEVNULL)
            os.close(writing)
            cls.unread = b''
        with tempfile.TemporaryDirectory() as folder:
            streams = {name: os.path.join(folder, name) for name in ('stdin', 'stdout', 'stderr')}
            with open(streams['stdin'], 'w', encoding='utf-8') as f:
                f.write(input or '')
            for name in ('stdout', 'stderr'):
                open(streams[name], 'w').close()
            cls.process.stdin.write(json.dumps({'argv': argv, 'cwd': os.path.abspath(cwd), 'env': env, **streams}) + '\n')
            cls.process.stdin.flush()
            pid = cls.reply()
            returncode = cls.reply(timeout)
            if returncode is None:
                os.killpg(pid, signal.SIGKILL)
                cls.reply()
                raise subprocess.TimeoutExpired(argv, timeout)
            output = [open(streams[name], encoding='utf-8', errors='replace').read() for name in ('stdout', 'stderr')]
        return subprocess.CompletedProcess(argv, returncode, *output)


def run_python(argv, cwd, env=None, input=None, timeout=600, fresh=False):
    """`python *argv` (argv[0] a script's path) in `cwd`, with `env` the whole environment and `input`
    typed (else no input): in a child of the fork server, or in a fresh interpreter when asked or when
    `env` changes what TensorFlow reads at import."""
    env = dict(os.environ if env is None else env)
    changed = {key for key in set(env) ^ set(os.environ) | {k for k in env if env[k] != os.environ.get(k)}}
    hooked = any(os.path.exists(os.path.join(folder, 'sitecustomize.py'))  # run as the interpreter starts
                 for folder in env.get('PYTHONPATH', '').split(os.pathsep) if folder)
    if fresh or hooked or any(key.startswith(READ_AT_IMPORT) for key in changed):
        return subprocess.run([sys.executable, *argv], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              input=input, stdin=None if input is not None else subprocess.DEVNULL, env=env)
    return Zygote.run(list(argv), cwd, env, input, timeout)
