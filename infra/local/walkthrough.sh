#!/usr/bin/env bash
# infra/local/walkthrough.sh — a curl walk-through of mentions, topics, notifications,
# blocks and mutes, run for real against `npm start` (or any API: API_URL). It prints a console
# transcript (command, body, status) ready to paste, so examples in the docs are real output.
# Handles get a random suffix, so it can run again on the same stack.
#   bash infra/local/walkthrough.sh            # against http://localhost:13000
set -euo pipefail
API=${API_URL:-http://localhost:13000}
SUFFIX=${SUFFIX:-$((RANDOM % 90 + 10))}
LIN=lin$SUFFIX WEI=wei$SUFFIX MEI=mei$SUFFIX

field() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const v=JSON.parse(s)$1;process.stdout.write(String(v))})"; }

# call METHOD PATH [TOKEN_VAR] [BODY] — prints the curl line as a reader would type it, then the answer and status.
call() {
  local method=$1 path=$2 token=${3:-} body=${4:-}
  local shown="curl -s"
  [[ $method != GET ]] && shown+=" -X $method"
  shown+=" '$API$path'"
  local args=(-s -o /tmp/walk.body -w '%{http_code}' -X "$method" "$API$path")
  if [[ -n $token ]]; then
    shown+=" -H \"authorization: Bearer \$$token\""
    args+=(-H "authorization: Bearer ${!token}")
  fi
  if [[ -n $body ]]; then
    shown+=" -H 'content-type: application/json' -d '$body'"
    args+=(-H 'content-type: application/json' -d "$body")
  fi
  local status
  status=$(curl "${args[@]}")
  echo "\$ ${shown/$API/localhost:13000}"
  echo "$(cat /tmp/walk.body)   # $status"
  LAST=$(cat /tmp/walk.body)
}

quiet() { curl -s -o /dev/null -X "$1" "$API$2" "${@:3}"; }
login() { curl -s -X POST "$API/sessions" -H 'content-type: application/json' -d "{\"handle\":\"$1\",\"password\":\"password $1\"}" | field .token; }

for h in $LIN $WEI $MEI; do
  quiet POST /users -H 'content-type: application/json' -d "{\"handle\":\"$h\",\"displayName\":\"$h\",\"password\":\"password $h\"}"
done
TOKEN_LIN=$(login $LIN) TOKEN_WEI=$(login $WEI) TOKEN_MEI=$(login $MEI)
export TOKEN_LIN TOKEN_WEI TOKEN_MEI

echo "\$ # $LIN, $WEI and $MEI are registered; TOKEN_LIN, TOKEN_WEI, TOKEN_MEI from their logins"
call POST /posts TOKEN_LIN "{\"body\":\"回家过 #春节# 啦 @$WEI @nobody #Family\"}"
POST=$(echo "$LAST" | field .id)
call PUT "/users/$WEI/likes/$POST" TOKEN_WEI
call PUT "/users/$MEI/likes/$POST" TOKEN_MEI
call POST "/posts/$POST/comments" TOKEN_WEI "{\"body\":\"@$MEI 一起来看\"}"
sleep 2
echo "\$ # two seconds later (notifications go through the queue):"
call GET "/users/$LIN/notifications/unread" TOKEN_LIN
call GET "/users/$LIN/notifications" TOKEN_LIN
NEWEST=$(echo "$LAST" | field '.notifications[0].id')
call GET "/users/$MEI/notifications" TOKEN_MEI
call PUT "/users/$LIN/notifications/read" TOKEN_LIN "{\"upTo\":\"$NEWEST\"}"
call GET "/users/$LIN/notifications/unread" TOKEN_LIN
call DELETE "/users/$MEI/likes/$POST" TOKEN_MEI
sleep 2
echo "\$ # after the unlike:"
call GET "/users/$LIN/notifications?limit=1" TOKEN_LIN
call GET "/topics/%E6%98%A5%E8%8A%82/posts?limit=1"
call GET "/topics/FAMILY/posts?limit=1"
call GET /topics/trending
call PUT "/users/$LIN/following/$WEI" TOKEN_LIN
call PUT "/users/$LIN/blocks/$WEI" TOKEN_LIN
call GET "/users/$LIN/following/$WEI"
call PUT "/users/$WEI/likes/$POST" TOKEN_WEI
call GET "/users/$LIN/posts" TOKEN_WEI
call PUT "/users/$WEI/following/$LIN" TOKEN_WEI
call GET "/users/$LIN/blocks" TOKEN_LIN
call DELETE "/users/$LIN/blocks/$WEI" TOKEN_LIN
call PUT "/users/$LIN/mutes/$MEI" TOKEN_LIN
call GET "/users/$LIN/mutes" TOKEN_LIN
call GET "/users/$LIN/blocks/$MEI" TOKEN_LIN
call PUT "/users/$LIN/blocks/$LIN" TOKEN_LIN
call GET "/topics/%23/posts"
