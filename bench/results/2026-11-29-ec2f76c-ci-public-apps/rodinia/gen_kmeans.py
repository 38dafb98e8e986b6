# synthetic kmeans input (sweep harness): N points, 34 features, 8 gaussian blobs; "id f1 .. f34" per line
import random, sys
n = int(sys.argv[1]); random.seed(3)
cent = [[random.uniform(0, 10) for _ in range(34)] for _ in range(8)]
with open("/work/sweep/rodinia/data/kmeans/kdd_%d.txt" % n, "w") as f:
    for i in range(n):
        c = cent[random.randrange(8)]
        f.write("%d %s\n" % (i, " ".join("%.4f" % (x + random.gauss(0, 1.0)) for x in c)))
