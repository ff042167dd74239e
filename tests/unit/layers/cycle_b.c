/* The other half of the planted import circle (cycle_a.c): it calls back into cycle_a.c. */
int hb_cycle_a(int n);

int hb_cycle_b(int n)
{
    return n > 0 ? hb_cycle_a(n - 1) : 1;
}
