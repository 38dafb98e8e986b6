# synthetic hurricane records (sweep harness), 48-char Rodinia nn format
import random, sys
nf, per = int(sys.argv[1]), int(sys.argv[2]); random.seed(11)
names = ["ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT", "GOLF", "HOTEL"]
lst = []
for f in range(nf):
    fn = "sw_%d.db" % f; lst.append(fn)
    with open("/work/sweep/rodinia/data/nn/" + fn, "w") as o:
        for i in range(per):
            line = "%4d %2d %2d %2d %2d %-10s %5.1f%5.1f %4d %4d" % (random.randint(1950, 2005), random.randint(1, 12), random.randint(1, 28), random.choice([0, 6, 12, 18]), random.randint(1, 20), random.choice(names), random.uniform(7, 63), random.uniform(0, 179), random.randint(10, 160), random.randint(900, 1010))
            assert len(line) == 48, (line, len(line))
            o.write(line + "\n")
open("/work/sweep/rodinia/data/nn/filelist_sw.txt", "w").write("\n".join(lst) + "\n")
