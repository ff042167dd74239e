/* A file whose public function does not carry its stem and whose file-local variable keeps the
 * hb_ prefix: style.names-fail expects both named. */
static volatile int hb_kept_prefix = 1;

int hb_elsewhere(void);
int hb_elsewhere(void)
{
    return hb_kept_prefix - 1;
}
