"""A long-lived yt-dlp that forks one child per download.

The server pays once for what every cold run of the command pays: Python's
start-up, the import of yt_dlp, its extractor list and the probe of ffmpeg's
and ffprobe's versions (two process starts). A child forked from it inherits
all of that and runs yt-dlp's own entry point with its arguments in its
directory, as the command would, with the same output and exit code.

Control, one JSON document per line:
  in  (stdin):  {"run": id, "argv": [...], "cwd": "..."}  start a run
                {"kill": id}                              kill its process group
  out (stdout): {"ready": true}                           warmed up, taking runs
                {"run": id, "pid": n}                     forked
                {"run": id, "fd": 1|2, "data": base64}    the run's output
                {"run": id, "exit": code}                 ended (minus the signal when killed), output done
End of input (the service stopped or died) kills every run's group, then the
server exits. Each child leads its own process group, so a kill reaches the
ffmpeg it started.
"""
import base64
import json
import os
import selectors
import signal
import sys
import traceback

import yt_dlp

READ_SIZE = 65536


def warm_up(shared_argv):
    """What a first run would do before its own work; best effort, as a run does it again if this fails."""
    try:
        from yt_dlp.postprocessor.ffmpeg import FFmpegPostProcessor

        options = yt_dlp.parse_options(shared_argv)
        with yt_dlp.YoutubeDL(options.ydl_opts) as ydl:
            FFmpegPostProcessor.get_versions_and_features(ydl)
            ydl.get_info_extractor('Generic')
    except Exception:
        traceback.print_exc()


class Run:
    def __init__(self, run_id, pid, out_fd, err_fd):
        self.id = run_id
        self.pid = pid
        self.open_fds = {out_fd: 1, err_fd: 2}
        self.status = None


class Server:
    def __init__(self, control_fd):
        self.control_fd = control_fd
        self.selector = selectors.DefaultSelector()
        self.runs = {}
        self.pending_input = b''
        self.wakeup_r, self.wakeup_w = os.pipe()
        os.set_blocking(self.wakeup_w, False)
        signal.set_wakeup_fd(self.wakeup_w)
        # A handler (even one doing nothing) makes SIGCHLD write to the wakeup pipe; reaping happens in the loop.
        signal.signal(signal.SIGCHLD, lambda *_: None)
        self.selector.register(0, selectors.EVENT_READ, 'control')
        self.selector.register(self.wakeup_r, selectors.EVENT_READ, 'wakeup')

    def send(self, message):
        data = (json.dumps(message) + '\n').encode()
        while data:
            data = data[os.write(self.control_fd, data):]

    def serve(self):
        # However serving ends (input ended, or the service gone mid-write), no run outlives it.
        try:
            self.send({'ready': True})
            while self.serve_once():
                pass
        finally:
            self.kill_all()

    def serve_once(self):
        for key, _ in self.selector.select():
            if key.data == 'control':
                if not self.read_control():
                    return False
            elif key.data == 'wakeup':
                os.read(self.wakeup_r, 4096)
                self.reap()
            else:
                self.relay(key.fd, key.data)
        return True

    def read_control(self):
        chunk = os.read(0, READ_SIZE)
        if not chunk:
            return False
        lines = (self.pending_input + chunk).split(b'\n')
        self.pending_input = lines.pop()
        for line in lines:
            if line.strip():
                self.handle(json.loads(line))
        return True

    def handle(self, request):
        if 'kill' in request:
            run = self.runs.get(request['kill'])
            # Reaped or not: a run whose yt-dlp has exited may still have its ffmpeg running in the group.
            if run is not None:
                kill_group(run.pid)
            return
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            os.close(out_r)
            os.close(err_r)
            run_child(request, out_w, err_w, self.inherited_fds())
        try:
            # The child does the same: whichever comes first, a kill sent right after the fork finds the group.
            os.setpgid(pid, pid)
        except OSError:
            pass
        os.close(out_w)
        os.close(err_w)
        run = Run(request['run'], pid, out_r, err_r)
        self.runs[run.id] = run
        self.selector.register(out_r, selectors.EVENT_READ, run)
        self.selector.register(err_r, selectors.EVENT_READ, run)
        self.send({'run': run.id, 'pid': pid})

    def inherited_fds(self):
        fds = [self.control_fd, self.wakeup_r, self.wakeup_w, self.selector.fileno()]
        for run in self.runs.values():
            fds.extend(run.open_fds)
        return fds

    def relay(self, fd, run):
        data = os.read(fd, READ_SIZE)
        if data:
            self.send({'run': run.id, 'fd': run.open_fds[fd], 'data': base64.b64encode(data).decode()})
            return
        self.selector.unregister(fd)
        os.close(fd)
        del run.open_fds[fd]
        self.finish_if_done(run)

    def reap(self):
        while self.runs:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            run = next((run for run in self.runs.values() if run.pid == pid), None)
            if run is not None:
                run.status = os.waitstatus_to_exitcode(status)
                self.finish_if_done(run)

    def finish_if_done(self, run):
        # Like a process's 'close': the exit is reported once its output has ended too.
        if run.status is not None and not run.open_fds:
            del self.runs[run.id]
            self.send({'run': run.id, 'exit': run.status})

    def kill_all(self):
        for run in self.runs.values():
            kill_group(run.pid)


def kill_group(pid):
    # Its leader may be reaped already: while a member of the group lives, the kernel keeps the group's id
    # from being given to another process, and a run stays listed only until its output has ended.
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_child(request, out_w, err_w, inherited_fds):
    code = 1
    try:
        os.setpgid(0, 0)
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for fd in inherited_fds:
            os.close(fd)
        # Nothing is read from stdin: yt-dlp sees an ended input, as the command run without one does.
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.close(out_w)
        os.close(err_w)
        if request.get('cwd'):
            os.chdir(request['cwd'])
        sys.argv = ['yt-dlp', *request['argv']]
        code = exit_code(run_yt_dlp(request['argv']))
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def run_yt_dlp(argv):
    try:
        return yt_dlp.main(argv)
    except SystemExit as exit:
        return exit.code


def exit_code(code):
    """What the interpreter would exit with for sys.exit(code): a message is printed and exits 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def main():
    shared_argv = json.loads(sys.argv[1]) if len(sys.argv) > 1 else []
    # The control channel gets stdout to itself: anything printed by the server's own code goes to stderr.
    control_fd = os.dup(1)
    os.dup2(2, 1)
    warm_up(shared_argv)
    Server(control_fd).serve()
    return 0


if __name__ == '__main__':
    sys.exit(main())
