/* Restarting hopbench in place: the OpenMP runtime reads its settings and this process's
 * binding as it loads, so what hopbench changes about either takes effect in a new image. */
#ifndef HB_RESTART_H
#define HB_RESTART_H

/* execv argv again through the resolved path of this executable (not /proc/self/exe, so the
 * process is still called hopbench). Returns only when that failed, with errno set. */
void hb_restart(char **argv);

#endif
