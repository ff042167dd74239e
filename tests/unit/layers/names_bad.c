/* A file whose public function does not carry its stem: style.names-fail expects it named. */
int hb_elsewhere(void);
int hb_elsewhere(void)
{
    return 0;
}
