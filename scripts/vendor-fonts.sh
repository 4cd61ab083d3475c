#!/usr/bin/env bash
# Refreshes assets/fonts/: the Latin subset, weights 400 and 700, of every font the customization
# settings offer (styling.font, styling.monospaceFont), as WOFF2, with each font's licence. They are
# committed, so that published sites show their font offline and `npm install` stays small
# (the @fontsource packages they come from are 2 to 7 MB each). ABCFavorit is GitBook's own,
# proprietary font: it is not redistributable, and falls back to the system font.
set -euo pipefail
cd "$(dirname "$0")/.."
fonts=(inter roboto roboto-slab open-sans source-sans-pro lato ubuntu raleway merriweather overpass
  noto-sans ibm-plex-serif poppins fira-sans fira-code ibm-plex-mono jetbrains-mono source-code-pro
  roboto-mono space-mono dm-mono inconsolata)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The PDF export embeds TrueType twins of the same files (docs/pdf.md): Debian's `woff2` package.
command -v woff2_decompress >/dev/null || { echo 'woff2_decompress missing: apt-get install woff2' >&2; exit 1; }
rm -rf assets/fonts && mkdir -p assets/fonts/licenses assets/fonts/ttf
for font in "${fonts[@]}"; do
  (cd "$work" && npm pack --silent "@fontsource/$font@5" >/dev/null)
  tar -xzf "$work"/fontsource-"$font"-*.tgz -C "$work"
  for weight in 400 700; do
    file="$font-latin-$weight-normal.woff2"
    # A font without a bold (DM Mono stops at 500) gets its heaviest weight for bold.
    [ -f "$work/package/files/$file" ] ||
      file=$(cd "$work/package/files" && ls "$font"-latin-[0-9]*-normal.woff2 | sort -V | tail -1)
    cp "$work/package/files/$file" assets/fonts/
    cp "$work/package/files/$file" "$work/$file" && woff2_decompress "$work/$file" >/dev/null
    mv "$work/${file%.woff2}.ttf" assets/fonts/ttf/ && rm "$work/$file"
    printf '%s %s %s\n' "$font" "$weight" "$file" >>"$work/index"
  done
  cp "$work/package/LICENSE" "assets/fonts/licenses/$font.txt"
  rm -rf "$work/package" "$work"/fontsource-"$font"-*.tgz
done
# font weight file, one per line: what src/modules/theme/fonts.ts serves for each weight.
sort "$work/index" >assets/fonts/index.txt
du -sh assets/fonts
