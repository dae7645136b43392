#!/usr/bin/env bash
# A walk through the emulator with curl: health, accounts, a page, a sorted and filtered page,
# following a next link, one call, a recording's audio (and a byte range), and the admin writes.
# Usage: examples/curl-walkthrough.sh [BASE_URL]   (default http://127.0.0.1:8080)
set -euo pipefail
BASE=${1:-http://127.0.0.1:8080}
json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const v=JSON.parse(s);console.log($1)})"; }

echo "== health"
curl -sf "$BASE/__admin/health" | json 'v.status'

echo "== the first account with calls, and its token"
ACCOUNTS=$(curl -sf "$BASE/__admin/accounts")
SID=$(echo "$ACCOUNTS" | json 'v.accounts.find(a=>a.calls>0).sid')
TOKEN=$(echo "$ACCOUNTS" | json 'v.accounts.find(a=>a.calls>0).token')
API="$BASE/call/2012-04-24/Accounts/$SID"
echo "$SID"

echo "== page 0 of the calls, 5 a page (Basic auth: the token is the user name)"
PAGE=$(curl -sf -u "$TOKEN:" "$API/Calls.json?PageSize=5")
echo "$PAGE" | json '`total ${v.total}, num_pages ${v.num_pages}, start ${v.start}, end ${v.end}`'

echo "== the next page, through next_page_uri (add /call and .json, as a production client must)"
NEXT=$(echo "$PAGE" | json 'v.next_page_uri')
NEXT_PATH="/call${NEXT%%\?*}.json?${NEXT#*\?}"
curl -sf -u "$TOKEN:" "$BASE$NEXT_PATH" | json '`page ${v.page}: ${v.calls.length} calls`'

echo "== the longest completed calls"
curl -sf -u "$TOKEN:" "$API/Calls.json?PageSize=3&SortBy=Duration:desc&Status=completed" | json 'v.calls.map(c=>c.duration).join(" ")'

echo "== one call, by the uri an item prints"
URI=$(echo "$PAGE" | json 'v.calls[0].uri')
curl -sf -u "$TOKEN:" "$BASE/call$URI" | json 'v.sid'

echo "== a recording's audio: no auth, whole and a range"
FILE=$(curl -sf -u "$TOKEN:" "$API/Recordings.json?PageSize=1" | json 'v.recordings[0].file_uri')
WAV="$BASE/${FILE#http*://*/}"
curl -sf -o /dev/null -w 'whole: %{http_code} %{size_download} bytes\n' "$WAV"
curl -sf -o /dev/null -w 'range: %{http_code} %{size_download} bytes\n' -H 'Range: bytes=0-43' "$WAV"

echo "== insert a call, see it first, reset the account"
curl -sf -X POST "$BASE/__admin/accounts/$SID/calls" -H 'Content-Type: application/json' \
  -d '{"from":"+15550001111","status":"completed","duration":42}' | json 'v.sid'
curl -sf -u "$TOKEN:" "$API/Calls.json?PageSize=1" | json 'v.calls[0].from'
curl -sf -X POST "$BASE/__admin/accounts/$SID/reset" -H 'Content-Type: application/json' | json 'v.status'
echo "== done"
