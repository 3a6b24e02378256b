#!/usr/bin/env python3
"""Generate Health Auto Export (HAE) JSON for benchmarks: a year of minute-level points, or one day's push.

Deterministic for a given --seed (Python's stdlib only). The shape follows what the iOS app writes
(../shared/reference/health-auto-export.md): `{"data": {"metrics": [{"name", "units", "data": [points]}]}}`,
pretty-printed the way Apple's JSONSerialization does (`"key" : value`, two-space indent), raw UTF-8 source names
(`Jane’s Apple Watch`, U+2019), several sources joined with `|`, dates `yyyy-MM-dd HH:mm:ss ±hhmm` in the offset of
their day (America/Los_Angeles, so the offset changes at DST inside the file), doubles at 17 significant digits, and
heart rate as `Min`/`Avg`/`Max`. With minute aggregation every point is dated at the start of its minute.

  gen_hae.py --days 365 --out hae-365d.json                 # about 1.1 M points, 150 MB
  gen_hae.py --days 365 --out hae.json --xml export.xml     # and the same samples as an Apple Health export.xml
  gen_hae.py --push --date 2032-12-30 --out push.json       # a day's push: 1,500 points over 20 metrics

The export.xml holds one Record per point, over the point's minute (heart rate: its Avg), with the point's source,
so `hkctl import` of either file stores the same readings. A JSON summary (points per metric, bytes) goes to stderr.
"""
import argparse, datetime as dt, json, math, random, sys
from xml.sax.saxutils import quoteattr
from zoneinfo import ZoneInfo

HOME = ZoneInfo("America/Los_Angeles")
WATCH, PHONE = "Jane\u2019s Apple\u00a0Watch", "Jane\u2019s iPhone"
BOTH = WATCH + "|" + PHONE
Q = "HKQuantityTypeIdentifier"

# name, units, HealthKit type, XML unit, points a day (about), (low, high), integer?, sources
YEAR_METRICS = [
    ("step_count", "count", Q + "StepCount", "count", 420, (8, 140), True, (WATCH, BOTH, PHONE)),
    ("walking_running_distance", "km", Q + "DistanceWalkingRunning", "km", 420, (0.005, 0.11), False, (WATCH, BOTH)),
    ("active_energy", "kcal", Q + "ActiveEnergyBurned", "kcal", 900, (0.05, 9.0), False, (WATCH,)),
    ("basal_energy_burned", "kcal", Q + "BasalEnergyBurned", "kcal", 480, (0.8, 1.3), False, (WATCH,)),
    ("heart_rate", "count/min", Q + "HeartRate", "count/min", 300, (52, 150), True, (WATCH,)),
    ("environmental_audio_exposure", "dBASPL", Q + "EnvironmentalAudioExposure", "dBASPL", 200, (35, 85), False, (WATCH,)),
    ("apple_stand_time", "min", Q + "AppleStandTime", "min", 110, (1, 1), True, (WATCH,)),
    ("respiratory_rate", "count/min", Q + "RespiratoryRate", "count/min", 60, (11, 19), False, (WATCH,)),
    ("walking_speed", "km/hr", Q + "WalkingSpeed", "km/hr", 50, (3.2, 6.4), False, (PHONE,)),
    ("apple_exercise_time", "min", Q + "AppleExerciseTime", "min", 40, (1, 1), True, (WATCH,)),
    ("time_in_daylight", "min", Q + "TimeInDaylight", "min", 30, (1, 1), True, (WATCH,)),
    ("blood_oxygen_saturation", "%", Q + "OxygenSaturation", "%", 20, (93, 100), True, (WATCH,)),
    ("flights_climbed", "count", Q + "FlightsClimbed", "count", 10, (1, 3), True, (PHONE, BOTH)),
    ("heart_rate_variability", "ms", Q + "HeartRateVariabilitySDNN", "ms", 10, (20, 90), False, (WATCH,)),
]

# A day's push: 1,500 points over 20 metrics. Exercise and stand minutes are Apple's own (no program may write them
# through `hkctl serve`), so the push has six other metrics in their place.
PUSH_METRICS = [m for m in YEAR_METRICS if m[0] not in ("apple_exercise_time", "apple_stand_time")] + [
    ("walking_step_length", "cm", Q + "WalkingStepLength", "cm", 40, (55, 80), False, (PHONE,)),
    ("walking_asymmetry_percentage", "%", Q + "WalkingAsymmetryPercentage", "%", 20, (0, 8), False, (PHONE,)),
    ("walking_double_support_percentage", "%", Q + "WalkingDoubleSupportPercentage", "%", 20, (20, 35), False, (PHONE,)),
    ("headphone_audio_exposure", "dBASPL", Q + "HeadphoneAudioExposure", "dBASPL", 60, (50, 80), False, (PHONE,)),
    ("stair_speed_up", "m/s", Q + "StairAscentSpeed", "m/s", 6, (0.3, 0.6), False, (PHONE,)),
    ("stair_speed_down", "m/s", Q + "StairDescentSpeed", "m/s", 6, (0.4, 0.7), False, (PHONE,)),
    ("running_speed", "km/hr", Q + "RunningSpeed", "km/hr", 20, (8, 14), False, (WATCH,)),
    ("dietary_water", "mL", Q + "DietaryWater", "mL", 6, (150, 500), True, (PHONE,)),
]


def stamp(t):
    """A UTC datetime as HAE writes it, in the home zone's offset of that instant."""
    return t.astimezone(HOME).strftime("%Y-%m-%d %H:%M:%S %z")


def number(value, integer):
    if integer:
        return str(int(value))
    text = format(value, ".17g")
    return text if any(c in text for c in ".e") else text + ".0"


def minutes_of_day(rng, date, wanted):
    """`wanted` distinct minutes (UTC datetimes) of the local day, mostly while awake, in order."""
    midnight = dt.datetime(date.year, date.month, date.day, tzinfo=HOME).astimezone(dt.timezone.utc)
    following = date + dt.timedelta(days=1)
    length = int((dt.datetime(following.year, following.month, following.day, tzinfo=HOME).astimezone(dt.timezone.utc)
                  - midnight).total_seconds() // 60)
    wanted = max(1, min(length, wanted))
    chosen = set()
    while len(chosen) < wanted:
        # Awake from about 06:30 to 23:00 four times out of five.
        minute = rng.randrange(390, 1380) if rng.random() < 0.8 else rng.randrange(0, length)
        chosen.add(min(minute, length - 1))
    return [midnight + dt.timedelta(minutes=m) for m in sorted(chosen)]


def points(rng, metric, date, count=None):
    """The points of `metric` on `date`: `count` of them, or about its points a day."""
    name, _, _, _, per_day, (low, high), integer, sources = metric
    count = count or max(1, int(per_day * rng.uniform(0.85, 1.15)))
    for t in minutes_of_day(rng, date, count):
        source = sources[0] if len(sources) == 1 or rng.random() < 0.7 else rng.choice(sources)
        if name == "heart_rate":
            avg = rng.uniform(low + 8, high - 30)
            spread = rng.uniform(0, 9)
            yield t, source, {"Min": float(math.floor(avg - spread)), "Avg": avg, "Max": float(math.ceil(avg + spread))}
        else:
            value = rng.randint(int(low), int(high)) if integer else rng.uniform(low, high)
            yield t, source, {"qty": value}


def write_point(out, t, source, fields, integer):
    # Apple's pretty-printer: keys in no fixed order (here: the figures, then date, then source).
    parts = []
    for key, value in fields.items():
        parts.append(f'            "{key}" : {number(value, integer and key == "qty")}')
    parts.append(f'            "date" : "{stamp(t)}"')
    parts.append(f'            "source" : {json.dumps(source, ensure_ascii=False)}')
    out.write("          {\n" + ",\n".join(parts) + "\n          }")


def write_payload(out, metrics, days, start, rng, exact=None, xml=None):
    """Writes the payload; `exact`: the number of points of each metric (one day), else about its points a day."""
    counts = {}
    out.write('{\n  "data" : {\n    "metrics" : [\n')
    for index, metric in enumerate(metrics):
        name, units, kind, xml_unit, _, _, integer, _ = metric
        out.write(f'      {{\n        "name" : "{name}",\n        "units" : {json.dumps(units, ensure_ascii=False)},\n'
                  '        "data" : [\n')
        first = True
        for day in range(days):
            date = start + dt.timedelta(days=day)
            for t, source, fields in points(rng, metric, date, exact and exact[index]):
                if not first:
                    out.write(",\n")
                first = False
                write_point(out, t, source, fields, integer)
                counts[name] = counts.get(name, 0) + 1
                if xml is not None:
                    value = fields.get("Avg", fields.get("qty"))
                    if units == "%":
                        value = value / 100
                    text = number(value, integer and "qty" in fields and units != "%")
                    end = t + dt.timedelta(minutes=1)
                    xml.write(f' <Record type="{kind}" sourceName={quoteattr(source)} unit={quoteattr(xml_unit)}'
                              f' creationDate="{stamp(end)}" startDate="{stamp(t)}" endDate="{stamp(end)}" value="{text}"/>\n')
        out.write("\n        ]\n      }" + (",\n" if index < len(metrics) - 1 else "\n"))
    out.write("    ],\n    \"workouts\" : [\n\n    ]\n  }\n}")
    return counts


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--days", type=int, default=365, help="days of minute-level points (default 365)")
    p.add_argument("--start", default="2023-01-01", help="first day, YYYY-MM-DD")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="-", help="the JSON path, or - for stdout")
    p.add_argument("--xml", help="also write the same samples as an Apple Health export.xml here")
    p.add_argument("--push", action="store_true", help="one day's push: --points points over 20 metrics")
    p.add_argument("--date", help="the push's day, YYYY-MM-DD (default: --start)")
    p.add_argument("--points", type=int, default=1500, help="points in a push (default 1500)")
    a = p.parse_args()
    rng = random.Random(a.seed)
    xml = open(a.xml, "w", encoding="utf-8", buffering=1 << 20) if a.xml else None
    if xml:
        xml.write('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
                  f' <ExportDate value="{stamp(dt.datetime.fromisoformat(a.start + "T00:00:00+00:00"))}"/>\n')
    out = sys.stdout if a.out == "-" else open(a.out, "w", encoding="utf-8", buffering=1 << 20)
    if a.push:
        date = dt.date.fromisoformat(a.date or a.start)
        # Exactly --points points, shared out by the metrics' points a day (the rounding goes to the first).
        total = sum(m[4] for m in PUSH_METRICS)
        exact = [max(1, a.points * m[4] // total) for m in PUSH_METRICS]
        exact[0] += a.points - sum(exact)
        counts = write_payload(out, PUSH_METRICS, 1, date, rng, exact, xml)
    else:
        counts = write_payload(out, YEAR_METRICS, a.days, dt.date.fromisoformat(a.start), rng, xml=xml)
    if xml:
        xml.write("</HealthData>\n")
        xml.close()
    if out is not sys.stdout:
        out.close()
    print(json.dumps({"points": sum(counts.values()), "metrics": len(counts), "counts": counts}), file=sys.stderr)


if __name__ == "__main__":
    main()
