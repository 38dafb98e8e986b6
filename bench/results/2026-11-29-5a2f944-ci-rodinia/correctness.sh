cd /work/sweep/rodinia
R=/tmp/rod/runall.sh
$R lud opencl/lud "" -- ./lud.out -s 2048 -p 0 -d 0
$R nw opencl/nw "" -- ./nw.out 8192 10 ./nw.cl -p 0 -d 0
$R pathfinder opencl/pathfinder "" -- ./pathfinder.out -c 100000 -r 100 -h 20 -p 0 -d 0
$R backprop opencl/backprop "" -- ./backprop.out -n 4194304 -p 0 -d 0
$R streamcluster opencl/streamcluster "output.txt" -- ./streamcluster.out 10 20 64 8192 8192 1000 none output.txt 1 -p 0 -d 0
$R srad opencl/srad "output/image_out.pgm" -- ./srad.out -n 200 -l 1 -s 502 458 -p 0 -d 0
$R hotspot opencl/hotspot "output.txt" -- ./hotspot.out 512 2 500 /work/sweep/rodinia/data/hotspot/temp_512 /work/sweep/rodinia/data/hotspot/power_512 output.txt -p 0 -d 0
$R bfs opencl/bfs "" -- ./bfs.out /work/sweep/rodinia/data/bfs/graph_1000000.txt -p 0 -d 0
$R nn opencl/nn "" -- ./nn.out /work/sweep/rodinia/data/nn/filelist_sw.txt -r 5 -lat 30 -lng 90 -f /work/sweep/rodinia/data/nn -p 0 -d 0
$R hybridsort opencl/hybridsort "" -- ./hybridsort.out r -p 0 -d 0
$R lavaMD opencl/lavaMD "" -- ./lavaMD.out -boxes1d 8 -p 0 -d 0
$R particlefilter opencl/particlefilter "output.txt" -- ./OCL_particlefilter_single.out -x 128 -y 128 -z 10 -np 20000 -p 0 -d 0
$R gaussian opencl/gaussian "" -- ./gaussian.out -s 1024 -p 0 -d 0
$R kmeans opencl/kmeans "" -- ./kmeans.out -o -m 5 -n 5 -i /work/sweep/rodinia/data/kmeans/kdd_100000.txt -p 0 -d 0
$R b+tree opencl/b+tree "output.txt" -- ./b+tree.out file /work/sweep/rodinia/data/b+tree/keys_1000000.txt command /work/sweep/rodinia/data/b+tree/command.txt -p 0 -d 0
