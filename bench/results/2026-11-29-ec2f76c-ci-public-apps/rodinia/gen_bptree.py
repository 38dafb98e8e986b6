# synthetic b+tree inputs (sweep harness): N shuffled keys, command file with k and j queries
import random, sys
n = int(sys.argv[1]); random.seed(13)
keys = list(range(1, n + 1)); random.shuffle(keys)
open("/work/sweep/rodinia/data/b+tree/keys_%d.txt" % n, "w").write("%d\n" % n + "\n".join(map(str, keys)) + "\n")
open("/work/sweep/rodinia/data/b+tree/command.txt", "w").write("j 6000 3000\nk 10000\n")
