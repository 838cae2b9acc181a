# shellcheck shell=bash
# Interruptions on a real device: kill -9 in the middle of a run, then `ptsuite resume`
# completes it and restores the write cache the drive had before the run (kept in
# journal/device.json, since kill -9 restores nothing); Ctrl-C ends a run with exit 130 and
# restores the write cache on the way out.

# wait_for_steps DIR N PID: until DIR has N journaled steps (or the run ends).
wait_for_steps() {
  local i
  for i in $(seq 1 1200); do
    [ "$(ls "$1/journal/steps" 2>/dev/null | wc -l)" -ge "$2" ] && return 0
    kill -0 "$3" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

check_kill9_then_resume() {
  local dev dir rc=0
  dev=$(nvme_ns "$NVME_B_SERIAL" 1) || { fail "no namespace"; return 1; }
  dir=$(work_dir nvme-resume)
  kill9_then_resume "$dev" "$dir" || rc=1
  keep_artifacts "$dir"
  return $rc
}

kill9_then_resume() {
  local dev=$1 dir=$2 pid f=$2/results.json
  "$PTSUITE" run latency,throughput --quick --target "$dev" --allow-destructive --confirm-serial "$NVME_B_SERIAL" \
    --out "$dir" --format none >"$CHECK_DIR/run.log" 2>&1 &
  pid=$!
  wait_for_steps "$dir" 12 "$pid" || { fail "the run ended before 12 steps: $(tail -n 2 "$CHECK_DIR/run.log")"; return 1; }
  kill -9 "$pid"; wait "$pid" 2>/dev/null
  expect_eq "$("$PTSUITE" device write-cache "$dev" --json | jq -r .state.enabled)" false \
    "write cache left by the killed run (nothing restores after kill -9)" || return 1
  expect_exit 0 "ptsuite resume" "$PTSUITE" resume "$dir" --allow-destructive --confirm-serial "$NVME_B_SERIAL" ||
    return 1
  jq_eq "$f" .run.status complete "status after resume" || return 1
  jq_eq "$f" '.run.resumes | length' 1 "resumes recorded" || return 1
  jq_eq "$f" '.run.journal.replayed_this_session >= 12' true "journaled steps replayed, not run again" || return 1
  jq_eq "$f" '[.tests[].id] | join(",")' "latency,throughput" "completed tests" || return 1
  jq_eq "$f" .write_cache.original.enabled true "the original write cache, from journal/device.json" || return 1
  expect_eq "$("$PTSUITE" device write-cache "$dev" --json | jq -r .state.enabled)" true \
    "write cache after the resumed run" || return 1
}

check_sigint_restores_cache() {
  local dev pid dir rc=0
  dir=$(work_dir nvme-sigint)
  dev=$(nvme_ns "$NVME_B_SERIAL" 2) || { fail "no namespace 2"; return 1; }
  "$PTSUITE" run latency --quick --target "$dev" --allow-destructive --confirm-serial "$NVME_B_SERIAL" \
    --out "$dir" --format none >"$CHECK_DIR/run.log" 2>&1 &
  pid=$!
  wait_for_steps "$dir" 3 "$pid" || { fail "the run ended early: $(tail -n 2 "$CHECK_DIR/run.log")"; return 1; }
  kill -INT "$pid"
  wait "$pid" || rc=$?
  expect_eq "$rc" 130 "exit code after SIGINT" || return 1
  jq_eq "$dir/results.json" .run.status interrupted status || return 1
  jq_eq "$dir/results.json" .write_cache.restored.enabled true "write cache restored on the way out" || return 1
  expect_eq "$("$PTSUITE" device write-cache "$dev" --json | jq -r .state.enabled)" true "the device's write cache"
}

run_check resume.kill9-nvme check_kill9_then_resume
run_check run.sigint-restores-write-cache check_sigint_restores_cache
