# synthetic 458x502 P2 image: smooth blobs + deterministic noise (sweep harness)
import math, random
random.seed(1)
R, C = 502, 458
out = ["P2", "%d %d" % (C, R), "255"]
for i in range(R):
    row = []
    for j in range(C):
        v = 100 + 60*math.sin(i/37.0)*math.cos(j/23.0) + 40*math.exp(-((i-250)**2+(j-230)**2)/5000.0) + random.gauss(0, 12)
        row.append(str(max(1, min(255, int(v)))))
    out.append(" ".join(row))
open("/work/sweep/rodinia/data/srad/image.pgm", "w").write("\n".join(out) + "\n")
