/* Half of a planted import circle (with cycle_b.c) for layers.no-cycles-fail: no-cycles.py must
 * name both files. */
int hb_cycle_b(int n);

int hb_cycle_a(int n)
{
    return n > 0 ? hb_cycle_b(n - 1) : 0;
}
