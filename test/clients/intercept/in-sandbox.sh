#!/bin/bash
# Runs inside `unshare --net --mount --map-root-user`: a network namespace whose only interface
# is loopback, so that nothing but loopback can be reached, whatever a client tries. Starts the
# emulator with interception, trusts its CA as `update-ca-certificates` would (a bind mount over
# the system bundle, seen by this namespace only), then runs each client family with nothing
# but environment variables set. Writes each client's output to $OUT/<name>.json.
set -euo pipefail
ROOT="$1"
OUT="$2"
ip link set lo up
ip -o link show > "$OUT/links.txt"
ip route show > "$OUT/routes.txt"

node "$ROOT/dist/cli.js" --dialect twilio --intercept 0 --port 0 --seed intercept-clients \
  --fixtures "$ROOT/test/clients/intercept/fixtures.json" --ca-dir "$OUT/ca" --log-level silent > "$OUT/banner.txt" 2>&1 &
EMULATOR=$!
trap 'kill $EMULATOR 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q '^Inspector:' "$OUT/banner.txt" && break; sleep 0.1; done
URL=$(sed -n 's/^callrec-emulator listening on \(http:[^ ]*\).*/\1/p' "$OUT/banner.txt")
PROXY=$(sed -n 's/^Intercepting .* at \(http:[^ ]*\) .*/\1/p' "$OUT/banner.txt")
read -r SID TOKEN < <(awk '/^  AC/ { print $1, $2; exit }' "$OUT/banner.txt")
export TWILIO_ACCOUNT_SID="$SID" TWILIO_AUTH_TOKEN="$TOKEN"

# What the emulator holds, asked directly: the answer every client must find.
curl -sf -u "$SID:$TOKEN" "$URL/2010-04-01/Accounts/$SID/Calls.json?PageSize=1000" > "$OUT/direct.json"

# The CA trusted system-wide, as docs/intercept.md says for python (here, in this namespace only).
cat /etc/ssl/certs/ca-certificates.crt "$OUT/ca/ca.pem" > "$OUT/system-bundle.crt"
mount --bind "$OUT/system-bundle.crt" /etc/ssl/certs/ca-certificates.crt

# Without the proxy, the provider cannot be reached from here at all.
if curl -s --max-time 5 https://api.twilio.com/ > /dev/null 2>&1; then echo reached > "$OUT/no-proxy.txt"; else echo "unreachable $?" > "$OUT/no-proxy.txt"; fi

# The guard sees what it must: a connection off loopback, a name looked up (both fail here).
GUARD_LOG="$OUT/guard-control.log" node --require "$ROOT/test/clients/intercept/loopback-guard.js" -e "
  require('node:net').connect(443, '10.255.255.1').on('error', () => undefined);
  require('node:dns').lookup('example.com', () => undefined);"

export GUARD_LOG="$OUT/guard.log"
: > "$GUARD_LOG"
NODE_ENV=(env HTTP_PROXY="$PROXY" HTTPS_PROXY="$PROXY" NODE_EXTRA_CA_CERTS="$OUT/ca/ca.pem"
  NODE_OPTIONS="--require $ROOT/test/clients/intercept/loopback-guard.js")

# The twilio CLI, unchanged: HOME for its config, and no update check against npm.
mkdir -p "$OUT/home"
CLI=("${NODE_ENV[@]}" HOME="$OUT/home" TWILIO_SKIP_NEW_VERSION_CHECK=true node "$ROOT/node_modules/twilio-cli/bin/run")
"${CLI[@]}" api:core:calls:list --limit 1000 --properties sid -o json > "$OUT/cli-calls.json" 2> "$OUT/cli-calls.err"
RECORDING=$("${CLI[@]}" api:core:recordings:list --limit 1 --properties sid -o json 2> /dev/null | sed -n 's/.*"sid": "\(RE[0-9a-f]*\)".*/\1/p' | head -1)
"${CLI[@]}" api:core:recordings:fetch --sid "$RECORDING" -o json > "$OUT/cli-recording.json" 2> "$OUT/cli-recording.err"

# twilio-node, as written for production.
(cd "$ROOT" && "${NODE_ENV[@]}" node test/clients/intercept/production-walk.js) > "$OUT/node.json" 2> "$OUT/node.err"

# Java: JAVA_TOOL_OPTIONS only.
[ "${JAVA:-1}" = 1 ] && JAVA_TOOL_OPTIONS=$(sed -n "s/^  java: export JAVA_TOOL_OPTIONS='\(.*\)'$/\1/p" "$OUT/banner.txt") \
  java "$ROOT/test/clients/intercept/ListCalls.java" > "$OUT/java.json" 2> "$OUT/java.err"

# python3-twilio: HTTPS_PROXY, and the system trust store.
[ "${PYTHON:-1}" = 1 ] && HTTPS_PROXY="$PROXY" /usr/bin/python3 "$ROOT/test/clients/intercept/production_list.py" > "$OUT/python.json" 2> "$OUT/python.err"

# curl, as the banner prints it.
curl -sf --proxy "$PROXY" --cacert "$OUT/ca/ca.pem" -u "$SID:$TOKEN" \
  "https://api.twilio.com/2010-04-01/Accounts/$SID/Calls.json?PageSize=1000" > "$OUT/curl.json"

# What the proxy refused while this ran, as the journal has it.
curl -sf "$URL/__admin/requests?method=CONNECT" > "$OUT/journal.json"
echo done > "$OUT/done.txt"
