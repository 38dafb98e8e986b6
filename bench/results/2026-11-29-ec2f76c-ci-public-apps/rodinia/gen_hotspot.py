# synthetic hotspot inputs (sweep harness): temp ~ 323-343 K, power ~ 0-0.01 W
import random, sys
n = int(sys.argv[1]); random.seed(n)
with open("/work/sweep/rodinia/data/hotspot/temp_%d" % n, "w") as t, open("/work/sweep/rodinia/data/hotspot/power_%d" % n, "w") as p:
    for i in range(n*n):
        t.write("%.6f\n" % (323.0 + 20*random.random()))
        p.write("%.8f\n" % (0.01*random.random()*random.random()))
