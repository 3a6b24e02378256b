#!/usr/bin/env python3
"""Writes locale-digits.<script>.xml from locale-digits.ascii.xml: the same export with the digits of every number
and date (values, dates, the date of birth, metadata numbers, workout and summary attributes) in a locale's own
digits, as phones set to Arabic, Persian or Hindi write them. Identifiers, versions and names keep theirs."""
import pathlib
import re

HERE = pathlib.Path(__file__).parent
SCRIPTS = {"arabic-indic": 0x0660, "persian": 0x06F0, "devanagari": 0x0966}
# Attributes that hold a number or a date.
NUMERIC = {"value", "startDate", "endDate", "creationDate", "HKCharacteristicTypeIdentifierDateOfBirth",
           "duration", "sum", "dateComponents", "activeEnergyBurned", "activeEnergyBurnedGoal",
           "appleExerciseTime", "appleExerciseTimeGoal", "appleStandHours", "appleStandHoursGoal"}
ascii_text = (HERE / "locale-digits.ascii.xml").read_text(encoding="utf-8")
for name, zero in SCRIPTS.items():
    def digits(text):
        out = "".join(chr(zero + ord(c) - 48) if c.isdigit() else c for c in text)
        # Arabic and Persian write the decimal separator as U+066B.
        return out.replace(".", "\u066b") if name != "devanagari" else out

    def replace(match):
        attribute, value = match.group(1), match.group(2)
        if attribute not in NUMERIC or value.startswith("HK"):
            return match.group(0)
        return f' {attribute}="{digits(value)}"'

    body = ascii_text.split("<HealthData", 1)
    text = body[0] + "<HealthData" + re.sub(r' ([A-Za-z]+)="([^"]*)"', replace, body[1])
    (HERE / f"locale-digits.{name}.xml").write_text(text, encoding="utf-8")
