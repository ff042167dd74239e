# A made fleet for the report's fleet summary (fleet.sh, tests/bench): from a results file's
# run record and its measurements with a value and a ci95 (the templates), HOSTS x CELLS
# measurement records: cell c is template c % templates named experiment "e<c>", host h is
# "h<h>", and each value, interval end and repeat value is scaled by up to +-3% (made from h
# and c, no randomness). Host SLOW (-1: none) is twice as costly with the same relative
# interval (latency x2, bandwidth / 2); host VAGUE (-1: none) 1.6 times as costly with an
# interval from half to twice its value.
#   awk -v hosts=H -v cells=C -v slow=S -v vague=V -f fleet_gen.awk template.jsonl
function scaled(s, f, out, n, i, parts) {
    n = split(s, parts, ",")
    out = ""
    for (i = 1; i <= n; i++)
        out = out (i > 1 ? "," : "") sprintf("%.6g", parts[i] * f)
    return out
}
# line with the value of "key": replaced by repl (the text between the key and the next
# delimiter, delim: "\"" for strings, "]" for lists, ",|}" for numbers).
function swap(line, key, repl, pat) {
    if (!match(line, pat)) return line
    return substr(line, 1, RSTART - 1) "\"" key "\":" repl substr(line, RSTART + RLENGTH)
}
/"type":"run"/ && !run { run = $0; next }
/"type":"measurement"/ && /"value":[0-9]/ && /"ci95":\[[0-9]/ { tpl[n++] = $0 }
END {
    if (!run || !n) { print "fleet_gen.awk: no run record or no measurement with value and ci95" > "/dev/stderr"; exit 2 }
    print run
    for (h = 0; h < hosts; h++)
        for (c = 0; c < cells; c++) {
            line = tpl[c % n]
            lat = line ~ /"unit":"ns"/
            f = 1 + 0.03 * (((h * 7919 + c * 104729) % 201) - 100) / 100
            worse = h == slow ? 2 : h == vague ? 1.6 : 1
            f = lat ? f * worse : f / worse
            match(line, /"value":[0-9.eE+-]+/)
            v = substr(line, RSTART + 8, RLENGTH - 8) * f
            match(line, /"ci95":\[[^]]*\]/)
            ci = h == vague ? sprintf("%.6g,%.6g", v / 2, v * 2) : scaled(substr(line, RSTART + 8, RLENGTH - 9), f)
            line = swap(line, "experiment", "\"e" c "\"", "\"experiment\":\"[^\"]*\"")
            line = swap(line, "host", "\"h" h "\"", "\"host\":\"[^\"]*\"")
            line = swap(line, "value", sprintf("%.6g", v), "\"value\":[0-9.eE+-]+")
            line = swap(line, "ci95", "[" ci "]", "\"ci95\":\\[[^]]*\\]")
            if (match(line, /"repeat_values":\[[^]]*\]/))
                line = swap(line, "repeat_values", "[" scaled(substr(line, RSTART + 17, RLENGTH - 18), f) "]", "\"repeat_values\":\\[[^]]*\\]")
            print line
        }
}
