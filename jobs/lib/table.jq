# table.jq: a plain-text table of a hopbench results.jsonl for people (run-local.sh's
# table.txt). Use: jq -r -s -f table.jq results.jsonl. The JSON Lines file stays canonical;
# this only lays out the measurements and the summary.
def cell(w): tostring | if length >= w then . else . + (" " * (w - length)) end;
def num: if . == null then "-" elif type == "number" then (. * 100 | round / 100 | tostring) else tostring end;
def headline:
  if .metric == "latency" then "\(.lat_ns_median | num) ns"
  else "\(.bw_GBps_best | num) GB/s" end;

(.[] | select(.type == "run")
  | "hopbench \(.hopbench_version) (\(.git_sha)) on \(.hosts | join(",")), \(.ranks) rank(s), simd \(.simd), started \(.start_time)"),
"",
([ "suite", "label", "kernel", "cpu", "mem", "hops", "threads", "value", "status" ]
  | map(cell(10)) | join(" ")),
(.[] | select(.type == "measurement")
  | [ .suite, .label, .kernel, (.cpu_node | num), (.mem_node // .policy | num), (.hops | num),
      (.threads | num), headline, .status ]
  | map(cell(10)) | join(" ")),
"",
(.[] | select(.type == "summary")
  | "summary: \(.experiments) experiments, \(.measurements) measurements: \(.ok) ok, \(.failed) failed, \(.elapsed_s | num) s")
