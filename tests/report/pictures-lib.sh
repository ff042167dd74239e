#!/usr/bin/env bash
# pictures-lib.sh: sourced by pictures.sh and pictures_selftest.sh. Runs pictures_check.js in
# headless Chromium at 1280 px on a copy of a page (the page itself stays script-free).
# Needs $browser and $here (this directory); sets $profile (remove it when done).
profile=$(mktemp -d)
chrome() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --hide-scrollbars --user-data-dir="$profile" "$@"
}
# pictures_check PAGE DIR: DIR/check.html (PAGE with the checker), DIR/dom.html (as laid out);
# sets found (the findings, one per line, HTML-unescaped) and count (what it looked at).
pictures_check() {
    {
        sed 's|</body></html>||' "$1"
        printf '<pre id="layout-count"></pre><pre id="layout-check">not run</pre><script>\n'
        cat "$here/pictures_check.js"
        printf '</script></body></html>\n'
    } >"$2/check.html"
    chrome --window-size=1280,1000 --dump-dom "file://$2/check.html" >"$2/dom.html" 2>"$2/console.log"
    found=$(perl -0ne 'print $1 if /<pre id="layout-check">(.*?)<\/pre>/s' "$2/dom.html" |
        sed 's/&quot;/"/g; s/&gt;/>/g; s/&lt;/</g; s/&amp;/\&/g')
    count=$(grep -o '<pre id="layout-count">[^<]*' "$2/dom.html" | sed 's/.*>//')
}
