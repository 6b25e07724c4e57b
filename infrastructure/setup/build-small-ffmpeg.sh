#!/usr/bin/env bash
# build-small-ffmpeg.sh PREFIX: builds ffmpeg and ffprobe from Debian's own ffmpeg source (the release's
# current 5.1.x, with Debian's security fixes) with only what the service and yt-dlp use, and installs them
# under PREFIX/bin. Debian's ffmpeg package brings every codec, filter and device library it supports (over
# 450 MB with Mesa and LLVM, pulled in through libavdevice); this one links four small codec libraries
# from Debian's packages and writes their names to PREFIX/runtime-packages for the image to install.
#
# What it keeps, and who needs it:
# - yt-dlp: merging and remuxing with `-c copy` (mp4, m4a, webm, matroska, HLS's MPEG-TS, FLV, AVI, 3GP),
#   audio extraction copied into its own container (m4a, opus, ogg, mp3, flac, mka) or encoded as mp3
#   (libmp3lame), the fix-ups it applies (aac_adtstoasc and the other bitstream filters), and sections cut
#   with `--force-keyframes-at-cuts`, which re-encode into the output container's default codecs (mp4:
#   H.264 with libx264 and AAC; webm audio: Opus with libopus), so the usual sources' decoders (H.264,
#   HEVC, VP8, VP9, AV1 with libdav1d, MPEG-4; AAC, MP3, Opus, Vorbis, FLAC, ALAC, AC-3) are in. ffmpeg
#   fetches sections itself, over HTTP(S) (GnuTLS, already in the base image) and HLS, through the egress
#   proxy (httpproxy).
# - the service: ffprobe, reading what a download delivered.
# - the test suite's fixture platform: media it makes from lavfi test sources (testsrc, testsrc2, sine)
#   as H.264, AAC and Opus, in MP4, WebM and HLS.
set -euo pipefail
prefix=$1
jobs=${FFMPEG_BUILD_JOBS:-2}

export DEBIAN_FRONTEND=noninteractive
# The source of the release's packages, from the same mirrors as its binaries.
sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  dpkg-dev build-essential nasm pkg-config ca-certificates \
  libgnutls28-dev zlib1g-dev libmp3lame-dev libopus-dev libx264-dev libdav1d-dev >/dev/null

work=$(mktemp -d)
# apt fetches sources as its own user where it can write.
chown _apt "$work"
cd "$work"
apt-get source -qq --download-only ffmpeg >/dev/null
dpkg-source --no-check -x ffmpeg_*.dsc source >/dev/null
cd source
echo "ffmpeg $(dpkg-parsechangelog -S Version) from Debian's source" >&2

list() { local IFS=,; echo "$*"; }
demuxers=(mov matroska webm_dash_manifest mp3 aac ac3 eac3 ogg flac wav mpegts hls flv avi h264 hevc m4v ivf concat data)
muxers=(mp4 mov ipod tgp matroska matroska_audio webm mp3 adts ac3 eac3 ogg oga opus flac wav mpegts hls flv avi null)
# rawvideo and the PCM decoders read what the lavfi test sources produce.
decoders=(h264 hevc vp8 vp9 libdav1d mpeg4 aac aac_latm mp3 mp3float opus vorbis flac alac ac3 eac3
  rawvideo pcm_u8 pcm_s16le pcm_s24le pcm_s32le pcm_f32le pcm_f64le)
encoders=(libx264 aac libmp3lame libopus flac pcm_s16le)
protocols=(file pipe http https httpproxy tcp tls crypto hls data concat cache)
filters=(buffer buffersink abuffer abuffersink format aformat scale aresample null anull trim atrim setpts asetpts
  fps transpose hflip vflip rotate copy acopy split asplit anullsrc testsrc testsrc2 sine)

./configure --prefix="$prefix" \
  --disable-debug --disable-doc --disable-ffplay --disable-shared --enable-static --disable-autodetect \
  --enable-gpl --enable-gnutls --enable-zlib --enable-libmp3lame --enable-libopus --enable-libx264 --enable-libdav1d \
  --disable-everything --disable-postproc \
  --enable-demuxer="$(list "${demuxers[@]}")" --enable-muxer="$(list "${muxers[@]}")" \
  --enable-decoder="$(list "${decoders[@]}")" --enable-encoder="$(list "${encoders[@]}")" \
  --enable-protocol="$(list "${protocols[@]}")" --enable-filter="$(list "${filters[@]}")" \
  --enable-parsers --enable-bsfs --enable-indev=lavfi >/dev/null
# Its compiler warnings are many and none is ours: the log's end shows when it fails.
make -j"$jobs" >"$work/make.log" 2>&1 || { tail -n 40 "$work/make.log" >&2; exit 1; }
make -s install >/dev/null
rm -rf "$prefix/include" "$prefix/lib" "$prefix/share"

# The Debian packages of the shared libraries the programs link.
for library in $(ldd "$prefix/bin/ffmpeg" "$prefix/bin/ffprobe" | awk '$3 ~ /^\// { print $3 }' | sort -u); do
  # Merged /usr: dpkg may know a library by either of its two paths.
  dpkg -S "$library" 2>/dev/null || dpkg -S "$(realpath "$library")" 2>/dev/null || dpkg -S "${library#/usr}"
done | cut -d: -f1 | sort -u >"$prefix/runtime-packages"
"$prefix/bin/ffmpeg" -hide_banner -version | head -n 1 >&2
cd / && rm -rf "$work"
