"""One yt-dlp run, started before its arguments are known.

Python's start-up and the import of yt_dlp (most of a second, more on a busy
machine) happen while the process waits; then it reads one line on stdin,
{"argv": [...], "cwd": "..."}, and runs yt-dlp's own entry point with those
arguments in that directory, exactly as the `yt-dlp` command would, printing
to the same stdout and stderr and exiting with the same code. End of input
before a line ends it quietly (the service stopped, or the spare was
discarded).
"""
import json
import os
import sys

import yt_dlp


def main():
    line = sys.stdin.readline()
    if not line.strip():
        return 0
    request = json.loads(line)
    # Nothing else is read from stdin: yt-dlp sees an ended input, as with the command run without one.
    sys.stdin.close()
    if request.get('cwd'):
        os.chdir(request['cwd'])
    sys.argv = ['yt-dlp', *request['argv']]
    return yt_dlp.main(request['argv'])


if __name__ == '__main__':
    sys.exit(main())
