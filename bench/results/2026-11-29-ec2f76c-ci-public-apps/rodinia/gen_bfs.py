# synthetic bfs graph (sweep harness), Rodinia graph format; random graph, avg degree ~6, deterministic
import random, sys
n = int(sys.argv[1]); random.seed(5)
adj = [[] for _ in range(n)]
for i in range(n):
    for _ in range(3):
        j = random.randrange(n)
        if j != i:
            w = random.randint(1, 10); adj[i].append((j, w)); adj[j].append((i, w))
out = [str(n)]; start = 0
for i in range(n):
    out.append("%d %d" % (start, len(adj[i]))); start += len(adj[i])
out.append(""); out.append("0"); out.append(""); out.append(str(start))
for i in range(n):
    for j, w in adj[i]: out.append("%d %d" % (j, w))
open("/work/sweep/rodinia/data/bfs/graph_%d.txt" % n, "w").write("\n".join(out) + "\n")
