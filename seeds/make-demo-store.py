#!/usr/bin/env python3
"""Rebuilds seeds/demo-store with hkctl itself: two weeks of water, steps, weight, sleep,
heart rate and mindful minutes.

Usage: python3 seeds/make-demo-store.py [path/to/hkctl]   (default: .build/debug/hkctl)
Deterministic: a fixed random seed, HKCTL_NOW and TZ pinned, so the data only changes when the schema does.
"""
import os, random, shutil, subprocess, sys, uuid

here = os.path.dirname(os.path.abspath(__file__))
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", ".build", "debug", "hkctl")
store = os.path.join(here, "demo-store")
shutil.rmtree(store, ignore_errors=True)
rng = random.Random(20240601)
env = dict(os.environ, HKCTL_STORE=store, TZ="Europe/Paris", HKCTL_NOW="2024-06-01T21:00:00+02:00")

def add(*args, source="hkctl"):
    subprocess.run([binary, "add", *args, "--source", source, "--format", "json"], env=env, check=True,
                   stdout=subprocess.DEVNULL)

weight = 72.8
for day in range(14):
    date = f"2024-05-{19 + day:02d}" if day < 13 else "2024-06-01"
    for hour in (8, 11, 14, 18):
        add("water", f"{rng.choice([250, 330, 500])}mL", "--at", f"{date}T{hour:02d}:{rng.randint(0, 59):02d}")
    for hour in (7, 9, 12, 13, 17, 19):
        steps = rng.randint(300, 2500)
        add("steps", str(steps), "--from", f"{date}T{hour:02d}:00", "--to", f"{date}T{hour:02d}:59", source="Phone")
    weight += rng.uniform(-0.3, 0.25)
    add("weight", f"{weight:.1f}kg", "--at", f"{date}T07:15")
    bed = rng.randint(0, 40)
    add("sleep", f"22:{50 + bed % 10:02d}-07:{rng.randint(0, 20):02d}", "--on", date, "--stage", "inbed", source="Watch")
    add("sleep", f"23:{10 + bed:02d}-03:00", "--on", date, "--stage", "core", source="Watch")
    add("sleep", "03:00-04:10", "--on", date, "--stage", "deep", source="Watch")
    add("sleep", f"04:10-06:{rng.randint(30, 55):02d}", "--on", date, "--stage", "rem", source="Watch")
    for hour in (9, 13, 17, 20):
        add("heart-rate", f"{rng.randint(58, 95)}bpm", "--at", f"{date}T{hour:02d}:{rng.randint(0, 59):02d}", source="Watch")
    if day % 2 == 0:
        add("mindful", "07:30-07:40", "--on", date, source="Calm")
print("demo store written to", store)
