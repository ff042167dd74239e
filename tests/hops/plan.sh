#!/usr/bin/env bash
# hops --dry-run on a topology fixture, checked by hops_check against the fixture's own
# topology record. Usage: plan.sh HOPBENCH HOPS_CHECK FIXTURE.xml LINKS|- [hops options...]
set -euo pipefail
bin=$1 check=$2 fixture=$3 links=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" topo --topology "$fixture" --format jsonl -o "$tmp/topo.jsonl"
"$bin" hops --topology "$fixture" --dry-run -o "$tmp/plan.jsonl" "$@"
if [ "$links" = - ]; then
  "$check" plan "$tmp/topo.jsonl" "$tmp/plan.jsonl"
else
  "$check" plan "$tmp/topo.jsonl" "$tmp/plan.jsonl" "$links"
fi
