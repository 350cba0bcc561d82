# ChaCha20Poly1305 encryption, GB/s by message size, one line per
# implementation and path.  gnuplot -e "dat='native.dat'; png='native.png'"
set terminal pngcairo size 1000,600 noenhanced
set output png
set title "ChaCha20Poly1305 encryption on one core (median)"
set xlabel "message bytes"
set ylabel "GB/s"
set logscale x 2
set xrange [48:90000]
set key top left
set grid
set xtics ("64" 64, "1420" 1420, "4096" 4096, "16384" 16384, "65536" 65536)
impls = system("awk '{print $1\" \"$2}' " . dat . " | sort -u | tr -d '\"' | tr ' ' '_'")
plot for [i in impls] \
	sprintf("< awk '{n=$1\"_\"$2; gsub(/\"/, \"\", n)} n == \"%s\" {print $3, $4}' %s", i, dat) \
	using 1:2 with linespoints title i
