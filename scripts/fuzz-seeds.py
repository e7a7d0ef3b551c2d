#!/usr/bin/env python3
# Writes the differential fuzzer's seeds into the folder named (default fuzz-seeds/): every JSON text
# of the conformance suites (Tests/KilnModelTests/FoundationConformanceTests*, NumberConformanceTests,
# KilnDecoderStrategyTests), each number spelling of NumberConformanceTests under the one-letter keys of
# kiln-fuzz's shapes, and a few documents of those shapes. Run from the repository root (CONTRIBUTING.md,
# "Fuzzing").
import re, os, hashlib, json, sys
out = sys.argv[1] if len(sys.argv) > 1 else "fuzz-seeds"
os.makedirs(out, exist_ok=True)
seeds = set()
for f in ["FoundationConformanceTests.swift","FoundationConformanceTests+Containers.swift","FoundationConformanceTests+Input.swift","FoundationConformanceTests+Keys.swift","FoundationConformanceTests+Strategies.swift","NumberConformanceTests.swift","KilnDecoderStrategyTests.swift"]:
    s = open("Tests/KilnModelTests/"+f).read()
    for m in re.finditer(r'#"(.*?)"#', s):
        t = m.group(1)
        if t[:1] in '[{"' or t[:1].isdigit() or t[:1] == '-':
            seeds.add(t)
    # number spellings in string arrays
    for arr in re.findall(r'(?:integerSpellings|floatingSpellings|extra) = \[(.*?)\]\n', s, re.S):
        for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', arr):
            lit = lit.replace('\\"', '"')
            for tmpl in ['{{"a": {0}, "e": {0}, "k": {0}, "l": {0}, "m": {0}}}', '[{0}]', '{0}', '{{"b": {0}, "j": {0}, "r": [{0}], "s": [[{0}]]}}']:
                seeds.add(tmpl.format(lit))
for t in sorted(seeds):
    name = hashlib.sha1(t.encode()).hexdigest()[:16]
    open(os.path.join(out, name + ".json"), "w").write(t)
# shape examples
extra = ['{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":1.5,"l":2.5,"m":3.25,"n":"x","o":true,"p":[{"a":1}],"q":{"k":{"b":2}},"r":[1,null],"s":[[1.5]],"t":{"x":1},"u":{"v":1,"w":"s","x":[1.5]}}',
 '{"i":170141183460469231731687303715884105727,"u":340282366920938463463374607431768211455,"y":"s","z":["a"]}',
 '{"a":1,"b":2,"a":3}', '{"x":{"a":1},"y":{"b":"2"}}', '["a","\\u00e9",null]', '[true,false,null]']
for t in extra:
    open(os.path.join(out, hashlib.sha1(t.encode()).hexdigest()[:16] + ".json"), "w").write(t)
print(len(os.listdir(out)))
