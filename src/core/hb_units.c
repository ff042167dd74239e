/* The unit table (hb_units.h): record spelling, display spelling, quantity, direction. */
#include "hb_units.h"

#include <stddef.h>
#include <string.h>

static const struct hb_unit {
    const char *key;   /* as records carry it */
    const char *shown; /* as people read it */
    const char *quantity;
    bool higher_better;
} units[] = {
    {"GBps", "GB/s", "bandwidth", true},     {"ns", "ns", "latency", false},
    {"us", "us", "latency", false},          {"s", "s", "time", false},
    {"loads/ns", "loads/ns", "speed", true},
};

static const struct hb_unit *unit_find(const char *unit)
{
    for (size_t i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(units[i].key, unit) == 0) return &units[i];
    return NULL;
}

const char *hb_units_shown(const char *unit)
{
    const struct hb_unit *u = unit_find(unit);
    return u ? u->shown : unit ? unit : "";
}

const char *hb_units_quantity(const char *unit)
{
    const struct hb_unit *u = unit_find(unit);
    return u ? u->quantity : "figure";
}

bool hb_units_higher_better(const char *unit)
{
    const struct hb_unit *u = unit_find(unit);
    return u && u->higher_better;
}
