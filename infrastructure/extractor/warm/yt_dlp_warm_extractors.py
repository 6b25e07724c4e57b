"""What a process's first extraction pays otherwise (about a second of CPU):
every extractor's URL pattern compiled, as matching a URL walks the list until
one accepts it, and every extractor module imported, which the generic
extractor does when it looks for embedded players. The metadata helpers pay it
once each; the fork server pays it once for every download it forks."""


def warm_extractors():
    from yt_dlp.extractor import gen_extractor_classes
    for extractor in gen_extractor_classes():
        try:
            extractor.suitable('https://example.invalid/')
            getattr(extractor, 'real_class', None)
        except Exception:  # noqa: BLE001 - warming is best effort; a broken extractor fails its own requests later
            pass
