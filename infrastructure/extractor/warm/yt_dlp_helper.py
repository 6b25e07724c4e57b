"""A warm yt-dlp for metadata: imports yt_dlp once, then answers requests.

Protocol, one JSON document per line:
  YT_DLP_HELPER_SETTINGS (environment)
           settings: {"argv": [...]}, the options the command line would get
           for `yt-dlp -J`, without the URL; not an argument, since they may
           hold a proxy's credentials and every local user can read argv
  stdout   {"ready": true, "version": "..."} once yt_dlp is imported
  stdin    {"id": n, "url": "...", "cookies": "..."}   "cookies" only when the cookies
           file changed since the helper read it: a fresh private copy, whose
           cookies replace those of the helper's jar before the extraction
  stdout   {"id": n, "ok": true, "info": {...}, "stderr": "..."}   the document `yt-dlp -J` prints
           {"id": n, "ok": false, "stderr": "..."}                 a failure
           where "stderr" is what `yt-dlp -J` would have printed there
One request at a time, on one YoutubeDL instance kept for the process's life
(its cookie jar too); the caller runs several helpers for concurrency and
kills one that takes too long.
"""
import json
import os
import sys

# The protocol owns the real stdout; anything else printing (yt-dlp, plugins) goes to stderr.
protocol = os.fdopen(os.dup(1), 'w', encoding='utf-8')
os.dup2(2, 1)
sys.stdout = sys.stderr


def send(message):
    protocol.write(json.dumps(message, ensure_ascii=False) + '\n')
    protocol.flush()


class CollectingLogger:
    """Keeps the lines the command line would print on stderr, in the same words."""

    def __init__(self):
        self.lines = []

    def debug(self, message):
        pass

    def info(self, message):
        pass

    def warning(self, message):
        self.lines.append(f'WARNING: {message}')

    def error(self, message):
        self.lines.append(message)


def main():
    # Removed from the environment: nothing the helper starts inherits it.
    options = json.loads(os.environ.pop('YT_DLP_HELPER_SETTINGS'))
    import yt_dlp
    from yt_dlp.utils import DownloadError

    # yt-dlp's own parser turns the options into YoutubeDL parameters, as it
    # does for the command line: extractor arguments, JavaScript runtimes and
    # whatever else the caller passes mean here what they mean there. An
    # option this version does not know ends the helper with yt-dlp's usage
    # error, and the caller falls back to the command line.
    params = yt_dlp.parse_options(options['argv']).ydl_opts
    # The answer goes over the protocol: nothing is printed, whatever the options
    # say. An error raises at once: the command line would go on but exit 1,
    # which fails the lookup all the same.
    params.update({'quiet': True, 'noprogress': True, 'ignoreerrors': False})

    logger = CollectingLogger()
    ydl = yt_dlp.YoutubeDL({**params, 'logger': logger})
    warm_up(ydl)
    send({'ready': True, 'version': yt_dlp.version.__version__})
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        # Each request reports only its own lines, including warnings yt-dlp prints once per instance.
        logger.lines = []
        getattr(ydl, '_printed_messages', set()).clear()
        try:
            if request.get('cookies'):
                # The same jar object the request handlers hold, emptied and filled from the new file.
                ydl.cookiejar.clear()
                ydl.cookiejar.load(request['cookies'], ignore_discard=True, ignore_expires=True)
            info = ydl.extract_info(request['url'], download=False)
            ydl.post_extract(info)
            send({'id': request['id'], 'ok': True, 'info': ydl.sanitize_info(info), 'stderr': '\n'.join(logger.lines)})
        except DownloadError:
            send({'id': request['id'], 'ok': False, 'stderr': '\n'.join(logger.lines)})
        except Exception as error:  # noqa: BLE001 - reported like the command line reports an unexpected error
            logger.lines.append(f'ERROR: {type(error).__name__}: {error}')
            send({'id': request['id'], 'ok': False, 'stderr': '\n'.join(logger.lines)})


def warm_up(ydl):
    """What the first extraction would otherwise pay (about a second): the URL
    pattern of every extractor this YoutubeDL may use compiled, and its module
    imported, which the generic extractor does when it looks for embedded
    players. With --use-extractors those are the ones it names."""
    from yt_dlp.extractor import gen_extractor_classes
    usable = getattr(ydl, '_ies', None)
    for extractor in usable.values() if usable else gen_extractor_classes():
        try:
            extractor.suitable('https://example.invalid/')
            getattr(extractor, 'real_class', None)
        except Exception:  # noqa: BLE001 - warming is best effort; a broken extractor fails its own requests later
            pass


if __name__ == '__main__':
    main()
