# Plots a dinghy --bench CSV: speedup and ns per vertex-step against threads.
# usage: gnuplot -e "csv='bench/results/latest.csv'; outdir='bench/results'" bench/plot.gp
set datafile separator ","
set datafile commentschars "#"
set terminal pngcairo size 900,560 noenhanced font ",11"
set key outside right top
set grid
set xlabel "threads"
scenes = system("awk -F, '!/^#/ && NR>2 {print $1}' ".csv." | awk '!seen[$0]++' | tr '\\n' ' '")
maxt = system("awk -F, '!/^#/ && NR>2 {if ($5>m) m=$5} END {print m}' ".csv)
set xrange [0.8:maxt+0.2]
set xtics 1

set output outdir."/speedup.png"
set title "dinghy tick: speedup over 1 thread"
set ylabel "speedup"
set yrange [0:maxt+0.5]
plot for [s in scenes] csv using (strcol(1) eq s ? $5 : NaN):9 with linespoints lw 2 pt 7 title s, \
     x with lines dt 2 lc "gray" title "ideal"

set output outdir."/ns_per_vertex_step.png"
set title "dinghy tick: ns per vertex-step (lower is better)"
set ylabel "ns per vertex-step"
set autoscale y
set yrange [0:*]
plot for [s in scenes] csv using (strcol(1) eq s ? $5 : NaN):8 with linespoints lw 2 pt 7 title s
