#!/usr/bin/env bash
# release.sh PARRAYC BUILD_DIR SOURCE_DIR WORKDIR
# The release as a user and Debian see it: one version in CMake's project(),
# `parrayc --version`, CHANGELOG.md, CITATION.cff, the CMake package and the
# .deb; a LICENSE; CITATION.cff valid (cffconvert, where installed); the .deb
# that cpack makes free of lintian errors, with the copyright file, the
# changelog, the gzipped man page, a stripped parrayc, a real description,
# the documentation, the samples (sources only) and the editor files, the
# libraries in the multiarch folder, pkg-config modules with plain /usr paths.
# Exit 77 (skipped) without cpack, dpkg-deb or lintian.
set -u
[ $# -eq 4 ] || { echo "usage: $0 PARRAYC BUILD_DIR SOURCE_DIR WORKDIR" >&2; exit 2; }
P=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") B=$(cd "$2" && pwd) S=$(cd "$3" && pwd) W=$4
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 2
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# ---- one version everywhere --------------------------------------------------
v=$(sed -n 's/^project(parrayc VERSION \([0-9.]*\).*/\1/p' "$S/CMakeLists.txt")
[ -n "$v" ] || fail "no version in project() of CMakeLists.txt"
"$P" --version | head -n 1 | grep -qx "parrayc $v" || fail "parrayc --version: $("$P" --version | head -n 1), project(): $v"
grep -q "^## $v " "$S/CHANGELOG.md" || fail "CHANGELOG.md has no section for $v"
# (an "## Unreleased" section above it gathers what the next version brings)
[ "$(sed -n '/^## Unreleased/d; /^## /{s/^## \([0-9.]*\).*/\1/p;q}' "$S/CHANGELOG.md")" = "$v" ] ||
  fail "CHANGELOG.md's newest section is not $v"
grep -qx "version: $v" "$S/CITATION.cff" || fail "CITATION.cff's version is not $v"
grep -q "PACKAGE_VERSION \"$v\"" "$B/ParrayConfigVersion.cmake" || fail "ParrayConfigVersion.cmake is not $v"
grep -qx "Version: $v" "$B/pkgconfig/parray.pc.in" || fail "parray.pc is not $v"

# ---- licence and citation ------------------------------------------------------
grep -q 'Permission is hereby granted' "$S/LICENSE" 2>/dev/null || fail "no MIT LICENSE"
grep -q 'license: MIT' "$S/CITATION.cff" || fail "CITATION.cff names no licence"
grep -q 'PARRAY: A Unifying Array Representation for Heterogeneous Parallelism' "$S/CITATION.cff" ||
  fail "CITATION.cff does not cite the PPoPP 2012 paper"
grep -q 'year: 2012' "$S/CITATION.cff" || fail "CITATION.cff: the PPoPP paper's year"
grep -q '基于Parray数组类型的矩阵乘法实现' "$S/CITATION.cff" || fail "CITATION.cff does not cite the source paper"
if command -v cffconvert >/dev/null 2>&1; then
  cffconvert --validate -i "$S/CITATION.cff" >cff.log 2>&1 || fail "cffconvert --validate: $(tail -n 5 cff.log)"
else
  echo "note: cffconvert not installed, CITATION.cff not validated against the schema"
fi

# ---- the .deb --------------------------------------------------------------------
for t in cpack dpkg-deb lintian; do
  command -v $t >/dev/null 2>&1 || { echo "skipped: no $t"; [ $fails -eq 0 ] && exit 77; exit 1; }
done
cpack --config "$B/CPackConfig.cmake" -G DEB -B "$W/pkg" >cpack.log 2>&1 || { tail -n 20 cpack.log >&2; fail "cpack"; exit 1; }
deb=$(ls "$W"/pkg/*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { fail "cpack made no .deb"; exit 1; }
[ "$(dpkg-deb -f "$deb" Version)" = "$v" ] || fail ".deb version $(dpkg-deb -f "$deb" Version), not $v"
lintian --tag-display-limit 0 "$deb" >lintian.log 2>&1
grep -v 'root privileges' lintian.log
grep -q '^E:' lintian.log && fail "lintian errors (above)"
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >contents
for f in /usr/bin/parrayc /usr/share/doc/parrayc/copyright /usr/share/doc/parrayc/changelog.gz \
         /usr/share/man/man1/parrayc.1.gz /usr/share/doc/parrayc/README.md /usr/share/doc/parrayc/CHANGELOG.md \
         /usr/share/doc/parrayc/LICENSE /usr/share/doc/parrayc/CITATION.cff /usr/share/doc/parrayc/doc/tutorial.md \
         /usr/share/doc/parrayc/doc/language.md /usr/share/doc/parrayc/samples/fig1_natural.pa \
         /usr/share/doc/parrayc/examples/cmake-user/CMakeLists.txt \
         /usr/share/vim/vimfiles/syntax/parray.vim /usr/share/vim/vimfiles/ftdetect/parray.vim \
         /usr/share/parrayc/editors/vscode/package.json \
         /usr/share/parrayc/editors/vscode/syntaxes/parray.tmLanguage.json; do
  grep -qx "$f" contents || fail ".deb lacks $f"
done
dpkg-deb -x "$deb" root || fail "dpkg-deb -x"
# the samples and examples as sources only: no program a build left beside them
odd=$(grep '^/usr/share/doc/parrayc/\(samples\|examples\)/.*[^/]$' contents |
      grep -v '\.\(pa\|pah\|h\|c\|out\|md\|txt\)$\|/CMakeLists\.txt$')
[ -z "$odd" ] || fail "the .deb's samples or examples hold other files than sources: $odd"
# the libraries, CMake package and pkg-config modules in the multiarch folder
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
for f in libparray.a pkgconfig/parray.pc cmake/Parray/ParrayConfig.cmake; do
  grep -qx "/usr/lib/$ma/$f" contents || fail ".deb lacks /usr/lib/$ma/$f"
done
# the pkg-config modules name /usr plainly (pkg-config then drops -I/usr/include)
for pc in root/usr/lib/"$ma"/pkgconfig/*.pc; do
  grep -qx 'prefix=/usr' "$pc" || fail "$(basename "$pc"): $(grep '^prefix=' "$pc"), not prefix=/usr"
  grep -n '//\|/\./\|\.\.' "$pc" | grep -v '^[0-9]*:#' && fail "$(basename "$pc") has unnormalised paths (above)"
done
file -b root/usr/bin/parrayc 2>/dev/null | grep -q 'not stripped' && fail "parrayc is not stripped"
[ "$(dpkg-deb -f "$deb" Description | wc -l)" -ge 3 ] || fail "the .deb's description has no extended part"
case $(dpkg-deb -f "$deb" Maintainer) in
  *@localhost*|'') fail "maintainer $(dpkg-deb -f "$deb" Maintainer)" ;;
  *' <'*@*.*'>') ;;
  *) fail "maintainer not 'name <address>': $(dpkg-deb -f "$deb" Maintainer)" ;;
esac
zcat root/usr/share/doc/parrayc/changelog.gz | head -n 1 | grep -q "^parrayc ($v)" || fail "changelog.gz is not for $v"
root/usr/bin/parrayc --version | head -n 1 | grep -qx "parrayc $v" || fail "the packaged parrayc --version"

[ $fails -eq 0 ] && echo "release $v: ok"
exit $((fails > 0))
