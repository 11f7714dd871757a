/* Time fields of data files: units and UTC date-times.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "timefmt.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

double dc_timefmt_unit_s(const char *u)
{
    static const struct { const char *name; double s; } units[] = {
        {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"min", 60.0}, {"h", 3600.0}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(u, units[i].name) == 0)
            return units[i].s;
    return NAN;
}

/* Days from 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil). */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

static bool digits(const char **p, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)(*p)[i]))
            return false;
        v = v * 10 + ((*p)[i] - '0');
    }
    *p += n;
    *out = v;
    return true;
}

bool dc_timefmt_datetime(const char *s, double *out_s)
{
    int y, mo, d, h, mi, sec = 0;
    const char *p = s;
    if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) || *p++ != '-' || !digits(&p, 2, &d))
        return false;
    if ((*p != ' ' && *p != 'T') || !(p++, digits(&p, 2, &h)) || *p++ != ':' || !digits(&p, 2, &mi))
        return false;
    double frac = 0.0;
    if (*p == ':') {
        p++;
        if (!digits(&p, 2, &sec))
            return false;
        if (*p == '.') {
            const char *q = p + 1;
            double scale = 0.1;
            if (!isdigit((unsigned char)*q))
                return false;
            for (; isdigit((unsigned char)*q); q++, scale /= 10)
                frac += (*q - '0') * scale;
            p = q;
        }
    }
    if (*p == 'Z')
        p++;
    if (*p != '\0')
        return false;
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || sec > 60)
        return false;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo == 2 && d == 29 && !leap)
        return false;
    *out_s = (double)days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400.0 + h * 3600.0 + mi * 60.0 + sec + frac;
    return true;
}

