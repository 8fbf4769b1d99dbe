# Uploads N records of 241 KB (7,300 nodes with a comment each) to a running
# `sygo serve --no-rate-limits`, looks at each (its game and its tree's first
# part), and prints the server's memory (MB) every 25 uploads.
# Usage: python3 scripts/flood-uploads.py BASE_URL SERVER_PID N
# (docs/performance.md, "Many uploads").
import sys, json, urllib.request, time
base, pid, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def mem():
    d = {}
    for line in open(f"/proc/{pid}/status"):
        k, v = line.split(":", 1)
        if k in ("VmRSS", "VmHWM"):
            d[k] = int(v.split()[0]) // 1024
    return d
ids = []
for i in range(n):
    text = "(;FF[4]GM[400]VR[sygo]SZ[5]" + "".join(f";C[upload {i:05} node {j:06} xxxx]" for j in range(7_300)) + ")"
    req = urllib.request.Request(base + "/api/records", data=text.encode(), headers={"content-type": "application/x-go-sgf"})
    for attempt in range(100):
        try:
            ans = json.load(urllib.request.urlopen(req))
            break
        except urllib.error.HTTPError as e:
            if e.code == 503: time.sleep(0.2); continue
            raise
    gid = ans["game"]["id"]; ids.append(gid)
    urllib.request.urlopen(base + f"/api/games/{gid}").read()
    urllib.request.urlopen(base + f"/api/games/{gid}/record/tree").read()
    if (i + 1) % 25 == 0:
        print(i + 1, "uploads", mem(), flush=True)
print("size of one upload", len(text))
