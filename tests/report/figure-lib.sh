# shellcheck shell=bash
# The figure rule of src/core/hb_figure_text.c, for tests that check printed figures against
# records: figures "V [LO HI]" on stdin, one a line, each as the tables print it ("26.47",
# "272.2 [221.0, 1201.3]": 4 significant digits, the ends at the value's decimals, e-notation
# from a million up; an end given as "null" prints the value alone).
figures() {
    awk 'function dec(v,  a, e) {
            if (v == 0) return 2
            a = v < 0 ? -v : v; e = int(log(a) / log(10))
            while (10 ^ (e + 1) <= a) e++
            while (10 ^ e > a) e--
            e = 3 - e; return e < 0 ? 0 : e > 9 ? 9 : e
        }
        function put(x, v) {
            a = v < 0 ? -v : v
            return a >= 1e6 ? sprintf("%.3e", x) : sprintf("%.*f", dec(v), x)
        }
        { s = put($1, $1); if (NF == 3 && $2 != "null" && $3 != "null") s = s " [" put($2, $1) ", " put($3, $1) "]"; print s }'
}
