#!/usr/bin/env bash
# The .deb: cpack builds it from the install rules; it holds the program, the
# menu entry, the trace's file type, the icons, the AppStream metadata, the
# man page and the bash completion, each valid; unpacked into a temporary
# root, the program runs from there with no file of the source or build
# folder beside it. The licence is MIT everywhere it is stated, the program is
# hardened as Debian's are (hardening-check), lintian finds nothing, and two
# packings give the same bytes.
set -u
BUILD="${BUILD:?set BUILD to the build folder}"
SRC="${SRC:?set SRC to the source folder}"
VERSION="${VERSION:?set VERSION to the project version}"
APP_ID="${APP_ID:?set APP_ID to the AppStream id}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Time stamps in the package are the last commit's, not the clock's
# (scripts/setup.sh exports the same for every build).
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git -C "$SRC" log -1 --format=%ct 2>/dev/null) || SOURCE_DATE_EPOCH=0
    export SOURCE_DATE_EPOCH
fi
if ! cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1; then
    cat "$tmp/cpack.log"
    echo "0 passed, 1 failed"
    exit 1
fi
deb="$tmp/out/idemlab_${VERSION}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] && ok || { bad "no $(basename "$deb") in: $(ls "$tmp/out")"; echo "$pass passed, $fail failed"; exit 1; }

# Exactly these files, nothing from the build or /usr/local.
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $NF}' | sort >"$tmp/files"
{
    echo ./usr/bin/idemlab
    echo "./usr/share/applications/$APP_ID.desktop"
    echo ./usr/share/bash-completion/completions/idemlab
    echo ./usr/share/doc/idemlab/changelog.gz
    echo ./usr/share/doc/idemlab/copyright
    for size in 16 32 48 64 128 256; do
        echo "./usr/share/icons/hicolor/${size}x$size/apps/idemlab.png"
    done
    echo ./usr/share/icons/hicolor/scalable/apps/idemlab.svg
    echo ./usr/share/man/man1/idemlab.1.gz
    echo "./usr/share/metainfo/$APP_ID.metainfo.xml"
    echo ./usr/share/mime/packages/idemlab.xml
} | sort >"$tmp/want"
diff "$tmp/want" "$tmp/files" >"$tmp/diff" && ok || bad "package contents differ (< wanted, > packed): $(cat "$tmp/diff")"

# The control fields: the version from CMake, libraries found by dpkg-shlibdeps.
[ "$(dpkg-deb -f "$deb" Version)" = "$VERSION" ] && ok || bad "Version $(dpkg-deb -f "$deb" Version)"
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6widgets6 libqt6charts6 libqt6svg6 libqt6qml6 libsqlite3-0 libc6; do
    [[ ", $depends," == *", $lib "* || ", $depends," == *", $lib,"* ]] && ok || bad "Depends lacks $lib: $depends"
done
# Live mode's servers, suggested (the installed lab's messages say how).
suggests=$(dpkg-deb -f "$deb" Suggests)
for server in postgresql-15 mariadb-server-core mariadb-client-core redis-server; do
    [[ ", $suggests," == *", $server,"* ]] && ok || bad "Suggests lacks $server: $suggests"
done
[ "$(dpkg-deb -f "$deb" Section)" = "science" ] && ok || bad "Section"
[[ "$(dpkg-deb -f "$deb" Maintainer)" == "Idempotency Lab "*"<"*"@"*">" ]] && ok ||
    bad "Maintainer does not name the project: $(dpkg-deb -f "$deb" Maintainer)"
# No home page until the project has one.
[ -z "$(dpkg-deb -f "$deb" Homepage)" ] && ok || bad "Homepage $(dpkg-deb -f "$deb" Homepage)"

# Unpacked elsewhere, the program runs without the build folder.
dpkg-deb -x "$deb" "$tmp/root"
mkdir "$tmp/elsewhere" && cd "$tmp/elsewhere" || exit 1
bin="$tmp/root/usr/bin/idemlab"
[ "$("$bin" --version)" = "idemlab $VERSION" ] && ok || bad "--version of the packed program"
"$bin" list --json >"$tmp/list.json" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert any(s["id"] == "order-create" for s in d["scenarios"]), d' "$tmp/list.json" && ok || bad "list --json"
"$bin" run --scenario order-create --json >"$tmp/run.json" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "exactly-once" and d["integrity"] == "ok", d' "$tmp/run.json" && ok || bad "run --json"
# Chinese comes from translations compiled into the binary.
"$bin" shot --scenario order-create --view outcome --lang zh --size 640x480 --out "$tmp/zh.png" 2>"$tmp/err" &&
    [ -s "$tmp/zh.png" ] && ok || bad "shot --lang zh: $(cat "$tmp/err")"
[ -z "$(ls -A "$tmp/elsewhere")" ] && ok || bad "the program left files in its working folder: $(ls -A)"
cd / || exit 1

# The licence: MIT (Debian's name for it: Expat), stated whole in the
# copyright file, named in the AppStream metadata and the source's LICENSE.
copyright="$tmp/root/usr/share/doc/idemlab/copyright"
metainfo="$tmp/root/usr/share/metainfo/$APP_ID.metainfo.xml"
grep -qx "License: Expat" "$copyright" && grep -q "MIT" "$copyright" &&
    grep -q "Permission is hereby granted, free of charge" "$copyright" &&
    ! grep -qi "all rights reserved\|@[A-Z_]*@" "$copyright" && ok ||
    bad "copyright: $(cat "$copyright")"
grep -q "<project_license>MIT</project_license>" "$metainfo" && ok || bad "metainfo licence"
! grep -q "<url\|@[A-Z_]*@" "$metainfo" && ok || bad "metainfo: a placeholder or home page"
head -1 "$SRC/LICENSE" | grep -qx "MIT License" && ok || bad "LICENSE is not MIT"
grep -q "LICENSE" "$SRC/README.md" && grep -q "MIT" "$SRC/README.md" && ok || bad "README: no licence"

# Hardened as Debian's own programs: stack protector, _FORTIFY_SOURCE, PIE,
# full RELRO (hardening-check, from devscripts). Control flow integrity (the
# x86 IBT and SHSTK marks) is not asked: Debian 12 builds neither its C
# library's start files nor its libraries for it, so no program linked here
# can carry the mark honestly, and its dpkg-buildflags does not ask for it.
out=$(hardening-check --nocfprotection "$tmp/root/usr/bin/idemlab" 2>&1)
[ $? -eq 0 ] && ok || bad "hardening-check: $out"

# lintian finds no error and no warning.
out=$(lintian --fail-on error,warning "$deb" 2>&1)
[ $? -eq 0 ] && ok || bad "lintian: $out"

# Packed again later: the same bytes.
sleep 1
if cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$tmp/again" >"$tmp/cpack2.log" 2>&1; then
    cmp -s "$deb" "$tmp/again/$(basename "$deb")" && ok ||
        bad "two packings differ: $(sha256sum "$deb" "$tmp/again/$(basename "$deb")")"
else
    bad "cpack again: $(cat "$tmp/cpack2.log")"
fi

# The trace's file type: the menu entry opens one (%f), shared-mime-info's
# own tool reads the definition without a complaint.
desktop="$tmp/root/usr/share/applications/$APP_ID.desktop"
grep -qx "Exec=idemlab %f" "$desktop" && grep -qx "MimeType=application/x-idemlab-trace;" "$desktop" &&
    ok || bad "desktop entry: $(cat "$desktop")"
mkdir -p "$tmp/mime/packages"
cp "$tmp/root/usr/share/mime/packages/idemlab.xml" "$tmp/mime/packages/"
out=$(XDG_DATA_DIRS="$tmp:/usr/share" update-mime-database "$tmp/mime" 2>&1)
[ $? -eq 0 ] && [ -z "$out" ] && grep -q ":application/x-idemlab-trace:\*\.idemlab\.json" "$tmp/mime/globs2" &&
    ok || bad "update-mime-database: $out $(cat "$tmp/mime/globs2" 2>&1)"

# The desktop files pass their validators. desktop-file-validate hints that
# Education and Science are both main categories: both are meant.
out=$(desktop-file-validate "$tmp/root/usr/share/applications/$APP_ID.desktop" 2>&1)
[ $? -eq 0 ] && ! grep -qE ': (error|warning):' <<<"$out" && ok || bad "desktop-file-validate: $out"
out=$(appstreamcli validate --no-net "$tmp/root/usr/share/metainfo/$APP_ID.metainfo.xml" 2>&1)
[ $? -eq 0 ] && ok || bad "appstreamcli validate: $out"
out=$(appstreamcli validate-tree --no-net "$tmp/root" 2>&1)
[ $? -eq 0 ] && ok || bad "appstreamcli validate-tree: $out"
grep -q "<release version=\"$VERSION\"" "$tmp/root/usr/share/metainfo/$APP_ID.metainfo.xml" && ok ||
    bad "metainfo release"

# The icons: each PNG is as large as its folder says.
python3 - "$tmp/root/usr/share/icons/hicolor" <<'PY' && ok || bad "icon sizes"
import struct, sys
for size in (16, 32, 48, 64, 128, 256):
    with open(f"{sys.argv[1]}/{size}x{size}/apps/idemlab.png", "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", size
    assert struct.unpack(">II", head[16:24]) == (size, size), (size, struct.unpack(">II", head[16:24]))
PY

# The man page renders without a warning.
MANWIDTH=80 man --warnings -l "$tmp/root/usr/share/man/man1/idemlab.1.gz" >"$tmp/man.txt" 2>"$tmp/man.err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/man.err" ] && ok || bad "man -l exited $rc: $(cat "$tmp/man.err")"
for section in NAME SYNOPSIS DESCRIPTION COMMANDS "RUN OPTIONS" "EXIT STATUS"; do
    grep -q "^$section" "$tmp/man.txt" && ok || bad "man page lacks $section"
done

# The completion in the package is the one the program prints.
"$bin" completion bash | cmp -s - "$tmp/root/usr/share/bash-completion/completions/idemlab" && ok ||
    bad "packed completion differs"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
