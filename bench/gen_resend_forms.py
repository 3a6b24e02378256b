#!/usr/bin/env python3
"""Minute-level HAE step points every 2 minutes for HOURS hours from 2024-05-01 UTC, shifted by SHIFT seconds:
the payloads of BENCHMARKS.md "a re-send in another form" (shift 0, then shift 30 re-sends them as instants)."""
import json, sys, datetime
hours=int(sys.argv[1]); shift=int(sys.argv[2])
t0=datetime.datetime(2024,5,1,0,0,0)
pts=[]
for i in range(hours*30):
    t=t0+datetime.timedelta(minutes=2*i, seconds=shift)
    pts.append({"date":t.strftime("%Y-%m-%d %H:%M:%S +0000"),"qty":10+i%7,"source":"Watch"})
print(json.dumps({"data":{"metrics":[{"name":"step_count","units":"count","data":pts}]}}))
